import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import NIOCore
import NIOPosix
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37 in a real browser: Debian's Chromium, headless, driven by Playwright for Python
/// (`Interop/console.py`, launched as the OAuth browser tests launch it). An operator signs in
/// with a password and a TOTP code, finds a user, ends one of her sessions (that device's next
/// refresh fails), bans and unbans her, removes another user's factor, deletes a third user's
/// account with its typed confirmation, rotates a key and reads the audit trail; a non-operator,
/// an operator without a factor, a forged CSRF token and `<script>` in metadata are refused or
/// escaped. Screenshots of each page at a desktop and a phone width go to
/// `.build/console-screenshots` (or `GATEHOUSE_SCREENSHOTS`), never into the repository.
///
/// Skipped without Chromium and Playwright, unless `CI` is set. The script and each of its
/// waits are bounded.
@Suite("The console in a real browser")
struct ConsoleBrowserTests {
    static var screenshots: String {
        ProcessInfo.processInfo.environment["GATEHOUSE_SCREENSHOTS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/console-screenshots").path
    }

    @Test(
        .enabled(
            if: BrowserSignInTests.installed || PythonInteropTests.required,
            "Chromium and Playwright for Python are not installed (scripts/ci-setup installs them)"
        )
    )
    func anOperatorManagesAUserInChromium() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("operator@example.com", client, harness)
            _ = try await ConsoleOperatorAccount.make("mallory@example.com", client, harness, grant: false)
            _ = try await client.confirmedSession(email: "solo@example.com")
            try await OperatorRoles.grant(email: "solo@example.com", storage: harness.server.storage)
            _ = try await client.confirmedSession(email: "victim@example.com")
            _ = try await client.confirmedSession(email: "doomed@example.com")
            let admin = try await harness.server.serviceRoleToken()
            let victim = try #require(
                try await harness.server.storage.read { try await $0.user(email: "victim@example.com") }
            )
            let marked = try await client.send(
                .put,
                "/admin/users/\(victim.id.key)",
                json: #"{"user_metadata":{"nickname":"<script>window.__xss=1</script>"}}"#,
                bearer: admin
            )
            #expect(marked.status == .ok)
            let phone = try await client.post(
                "/token?grant_type=password",
                #"{"email":"victim@example.com","password":"correct horse battery","device":"Victim's phone"}"#
            )
            let laptop = try await client.post(
                "/token?grant_type=password",
                #"{"email":"victim@example.com","password":"correct horse battery","device":"Victim's laptop"}"#
            )
            let port = try #require(client.client.port)
            let clock = harness.clock
            let app = account.app
            let run = try await InteropScript.run(
                "console.py",
                [
                    "http://localhost:\(port)", account.email, "victim@example.com", "mallory@example.com",
                    "solo@example.com", phone.string("refresh_token") ?? "", laptop.string("refresh_token") ?? "",
                    Self.screenshots, "doomed@example.com",
                ],
                timeout: .seconds(360)
            ) { line in
                guard line == "CODE?" else { return nil }
                clock.advance(by: 30)
                return app.code(at: clock.now())
            }
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("14 passed, 0 failed"))
        }
    }

    /// The passkey sign-in in Chromium (`Interop/console_passkey.py`): a virtual authenticator
    /// creates the operator's passkey through the API and signs in with it and the code on the console's page,
    /// through `/console/passkey.js` under the console's CSP; an authenticator without user
    /// verification and a non-operator's passkey get no console session. The server's origin
    /// must be known before it starts (the RP's origin): a free port, then the server on it.
    @Test(
        .enabled(
            if: BrowserSignInTests.installed || PythonInteropTests.required,
            "Chromium and Playwright for Python are not installed (scripts/ci-setup installs them)"
        )
    )
    func anOperatorSignsInWithAPasskeyInChromium() async throws {
        // Below the ephemeral range: a port `bind(0)` hands out may go to an outgoing
        // connection of the suite before the server binds it ("Address already in use").
        let port = LoopbackPort.free()
        try #require(port != 0, "no free loopback port")
        let harness = try await Harness.make {
            $0.webAuthn = WebAuthnSettings(rpID: "localhost", origins: ["http://localhost:\(port)"])
        }
        defer { harness.removeFiles() }
        try await harness.live(fixedPort: port) { client in
            let account = try await ConsoleOperatorAccount.make("operator@example.com", client, harness)
            let stranger = try await client.confirmedSession(email: "stranger@example.com")
            let clock = harness.clock
            let app = account.app
            let run = try await InteropScript.run(
                "console_passkey.py",
                [
                    "http://localhost:\(port)", account.email, account.session.string("access_token") ?? "",
                    stranger.string("access_token") ?? "", Self.screenshots,
                ],
                timeout: .seconds(270)
            ) { line in
                guard line == "CODE?" else { return nil }
                clock.advance(by: 30)
                return app.code(at: clock.now())
            }
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("5 passed, 0 failed"))
        }
    }
}
