import Foundation
import GatehouseProcessTesting
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// A real browser through the sign-ins (issue 36): Debian's Chromium, headless, driven by
/// Playwright for Python (`Interop/browser.py`), follows an app's page → `/authorize` → each fake
/// provider's consent page (a click) → `/callback` → the app's page with `?code=` → the page's
/// exchange → signed in; for an OpenID Connect provider, GitHub, Google and Apple (whose page
/// posts the form back); and the e-mail PKCE flow with the mailed link opened in the browser (on
/// another profile first, which gets no session).
///
/// `scripts/ci-setup` installs Chromium (apt) and Playwright (pip); locally without them the test
/// is skipped, unless `CI` is set. The script and each of its waits are bounded.
@Suite("A real browser signs in")
struct BrowserSignInTests {
    static var installed: Bool {
        PythonModules.installed("playwright.sync_api")
            && FileManager.default.isExecutableFile(atPath: InteropScript.chromium)
    }

    @Test(
        .enabled(
            if: installed || PythonInteropTests.required,
            "Chromium and Playwright for Python are not installed (scripts/ci-setup installs them)"
        )
    )
    func everyProviderKindAndAnEmailedLinkSignInInChromium() async throws {
        let mailer = LinkMailer()
        let appPort = LoopbackPort.free()
        let site = "http://127.0.0.1:\(appPort)"
        let scene = try await OAuthScene.make(google: true, apple: true, site: site, mailer: mailer) {
            $0.smtpMaxFrequency = 0
        }
        let google = try #require(scene.google)
        google.behave { $0.profile = FakeProfile(subject: "g-browser", email: "grace@gmail.com") }
        scene.github.change { $0.emails = [("gh@example.com", true, true)] }
        scene.okta.behave { $0.profile = FakeProfile(subject: "okta-browser", email: "okta@example.com") }
        let providers = ["keycloak", "github", "google", "apple", "okta"]
        let page = try await AppPage(port: appPort, server: scene.url, providers: providers)
        let email = "browser@example.com"
        try await scene.run { _ in
            let run = try await InteropScript.run(
                "browser.py",
                [page.url, email] + providers,
                timeout: .seconds(360)
            ) { line in
                guard line.hasPrefix("LINK? ") else { return nil }
                let parts = line.split(separator: " ")
                guard parts.count == 3, let count = Int(parts[2]) else { return "" }
                return mailer.waitForLink(to: String(parts[1]), after: count) ?? ""
            }
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("\(providers.count + 2) passed, 0 failed"))
        }
        await page.stop()
    }
}
