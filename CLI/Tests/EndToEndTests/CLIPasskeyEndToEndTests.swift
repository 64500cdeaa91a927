import Foundation
import Gatehouse
import GatehouseGoTrue
import GatehouseTesting
import Testing

/// `gatehouse passkeys list|rename|remove` against the real server; the passkey itself is made
/// by the SDK with the software authenticator (a terminal has no authenticator).
@Suite(
    "gatehouse passkeys against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct CLIPasskeyEndToEndTests {
    @Test @MainActor func listRenameAndRemoveAPasskey() async throws {
        let server = try await EndToEndServer(
            environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true", "GATEHOUSE_WEBAUTHN_RP_ID": "example.com"]
        )
        defer { server.stop() }
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let signup = try await CLIEndToEndTests.gatehouse(
            ["signup", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(signup.status == 0, "\(signup.stderr)")
        let empty = try await CLIEndToEndTests.gatehouse(["passkeys", "list", "--server", url], config: config)
        #expect(empty.stdout.contains("No passkeys."))

        let auth = AuthService(
            backend: GoTrueBackend(url: server.url),
            store: FileSessionStore(fileURL: server.directory.appendingPathComponent("sdk/session.json"))
        )
        await auth.restoreSession()
        try await auth.signIn(email: "ada@example.com", password: "correct horse battery")
        let request = try await auth.passkeys.registrationRequest()
        let passkey = try await auth.passkeys.register(
            try SoftwarePasskeyAuthenticator().register(request),
            for: request,
            name: "Laptop"
        )
        let id = passkey.id.uuidString.lowercased()

        let listed = try await CLIEndToEndTests.gatehouse(["passkeys", "list", "--server", url], config: config)
        #expect(listed.status == 0)
        #expect(listed.stdout.contains(id) && listed.stdout.contains("Laptop"))
        let renamed = try await CLIEndToEndTests.gatehouse(
            ["passkeys", "rename", id, "Work laptop", "--server", url, "--json"],
            config: config
        )
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.json["name"] as? String == "Work laptop")
        let unknown = try await CLIEndToEndTests.gatehouse(
            ["passkeys", "remove", UUID().uuidString, "--server", url],
            config: config
        )
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("Passkey not found"))
        let badID = try await CLIEndToEndTests.gatehouse(
            ["passkeys", "remove", "nope", "--server", url],
            config: config
        )
        #expect(badID.status == 2)
        let removed = try await CLIEndToEndTests.gatehouse(["passkeys", "remove", id, "--server", url], config: config)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try await auth.passkeys.list().isEmpty)
    }
}
