import Foundation
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The official Python `supabase-auth` client's PKCE flows against the server (issue 36):
/// `sign_in_with_oauth` and `exchange_code_for_session` with a fake OpenID Connect provider and a
/// fake GitHub, and `sign_up` / `reset_password_for_email` whose mailed link the script opens.
///
/// `.ci/run` installs the client; locally without it the test is skipped, unless `CI` is set.
@Suite("Python supabase-auth: PKCE sign-ins")
struct OAuthInteropTests {
    @Test(
        .enabled(
            if: PythonInteropTests.clientInstalled || PythonInteropTests.required,
            "python3 with supabase-auth is not installed (CI installs it)"
        )
    )
    func officialClientSignsInThroughProvidersAndByMailedLinksWithPKCE() async throws {
        let mailbox = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-links-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: mailbox) }
        let scene = try await OAuthScene.make(mailer: LinkMailer(file: mailbox)) { $0.smtpMaxFrequency = 0 }
        let clock = scene.clock
        try await scene.run { _ in
            // The client's tokens are checked against the wall clock: keep the server's near it.
            clock.advance(by: Date().timeIntervalSince(clock.now()))
            let run = try await InteropScript.run(
                "oauth.py",
                [scene.url, OAuthScene.app, mailbox.path, "github", "keycloak"],
                timeout: .seconds(300)
            )
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("5 passed, 0 failed"))
        }
    }
}
