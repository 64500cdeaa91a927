import Foundation
import Testing

/// The proof of a recent sign-in from the terminal: `gatehouse reauthenticate`, the prompt of
/// the sensitive commands, `--nonce-stdin` for scripts; and `--allow-insecure-http`. The server's
/// sessions are made 11 minutes old in its database (``EndToEndServer/backdateSignIns(by:)``).
@Suite(
    "gatehouse reauthentication against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct CLIReauthenticationEndToEndTests {
    typealias CLI = CLIEndToEndTests
    static let email = "ada@example.com"

    /// A server with autoconfirm and Ada signed up in `laptop`.
    static func serverWithAda() async throws -> (EndToEndServer, URL) {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        let laptop = server.directory.appendingPathComponent("laptop")
        let signup = try await CLI.gatehouse(
            ["signup", "--server", server.url.absoluteString, "--email", email],
            config: laptop,
            answers: [("correct horse battery", nil)]
        )
        #expect(signup.status == 0, "\(signup.stderr)")
        return (server, laptop)
    }

    @Test func aLateSignOutOfTheOtherSessionsAsksForTheMailedCode() async throws {
        let (server, laptop) = try await Self.serverWithAda()
        let url = server.url.absoluteString
        let desktop = server.directory.appendingPathComponent("desktop")
        let login = try await CLI.gatehouse(
            ["login", "--server", url, "--email", Self.email],
            config: desktop,
            answers: [("correct horse battery", nil)]
        )
        #expect(login.status == 0, "\(login.stderr)")
        try await server.backdateSignIns(by: 660)

        let mailed = server.codes(for: Self.email).count
        let logout = try await CLI.gatehouse(
            ["logout", "--scope", "others", "--server", url],
            config: laptop,
            answers: [("", { try await server.code(for: Self.email, after: mailed) })]
        )
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stderr.contains("Enter the code we sent to \(Self.email) to sign out your other devices."))
        #expect(logout.stdout.contains("this one stays signed in"))
        #expect(try await CLI.gatehouse(["status", "--server", url], config: desktop).status == 3, "ended")
        #expect(try await CLI.gatehouse(["status", "--server", url], config: laptop).status == 0, "still here")
    }

    @Test func scriptsSendTheCodeOnStdinAndAWrongOrMissingOneChangesNothing() async throws {
        let (server, laptop) = try await Self.serverWithAda()
        let url = server.url.absoluteString
        try await server.backdateSignIns(by: 660)

        let sent = try await CLI.gatehouse(["reauthenticate", "--server", url, "--json"], config: laptop)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.json["sent"] as? Bool == true && sent.json["email"] as? String == Self.email)
        let code = try await server.code(for: Self.email)

        let wrongCode = try await CLI.gatehouse(
            ["delete-account", "--yes", "--nonce-stdin", "--server", url],
            config: laptop,
            answers: [(wrong(code), nil)]
        )
        #expect(wrongCode.status == 1, "\(wrongCode.stderr)")
        #expect(wrongCode.stderr.contains("The code is wrong or has expired."), "\(wrongCode.stderr)")
        #expect(!wrongCode.stderr.contains(code) && !wrongCode.stdout.contains(code), "the code is not echoed")

        let missing = try await CLI.gatehouse(
            ["delete-account", "--yes", "--nonce-stdin", "--server", url],
            config: laptop
        )
        #expect(missing.status == 2 && missing.stderr.contains("No reauthentication code"), "\(missing.stderr)")
        #expect(try await CLI.gatehouse(["status", "--server", url], config: laptop).status == 0, "not deleted")

        let deleted = try await CLI.gatehouse(
            ["delete-account", "--yes", "--nonce-stdin", "--server", url],
            config: laptop,
            answers: [(code, nil)]
        )
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Deleted \(Self.email)"))
    }

    @Test func withoutACodeAtThePromptNothingHappens() async throws {
        let (server, laptop) = try await Self.serverWithAda()
        let url = server.url.absoluteString
        try await server.backdateSignIns(by: 660)
        let cancelled = try await CLI.gatehouse(["delete-account", "--yes", "--server", url], config: laptop)
        #expect(cancelled.status == 2, "\(cancelled.stderr)")
        #expect(cancelled.stderr.contains("to delete your account") && cancelled.stderr.contains("No code given"))
        #expect(server.codes(for: Self.email).count == 1, "the code was mailed before it was asked for")
        #expect(try await CLI.gatehouse(["status", "--server", url], config: laptop).status == 0, "not deleted")
    }

    @Test func anHTTPServerOnAnotherHostIsRefusedUnlessAllowed() async throws {
        let (server, _) = try await Self.serverWithAda()
        // 0.0.0.0 is not loopback to the SDK, but on Linux a connection to it reaches this machine.
        let other = "http://0.0.0.0:\(server.port)"
        let config = server.directory.appendingPathComponent("elsewhere")
        let refused = try await CLI.gatehouse(
            ["login", "--server", other, "--email", Self.email, "--json"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        let error = refused.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "insecure_connection", "\(refused.stdout)")

        let allowed = try await CLI.gatehouse(
            ["login", "--server", other, "--email", Self.email, "--allow-insecure-http"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("Signed in as \(Self.email)"))
    }
}
