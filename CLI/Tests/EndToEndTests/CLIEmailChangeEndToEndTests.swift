import Foundation
import Testing

/// `gatehouse upgrade` and `gatehouse change-email` ask for the code(s) an address needs.
@Suite(
    "gatehouse upgrade and change-email against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct CLIEmailChangeEndToEndTests {
    @Test func upgradeAsksForTheCodeAndKeepsTheGuestsID() async throws {
        let server = try await EndToEndServer()
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let guest = try await CLIEndToEndTests.gatehouse(
            ["login", "--guest", "--server", url, "--json"],
            config: config
        )
        let id = try #require(guest.json["user_id"] as? String)

        let upgrade = try await CLIEndToEndTests.gatehouse(
            ["upgrade", "--server", url, "--email", "ada@example.com", "--json"],
            config: config,
            answers: [("correct horse battery", nil), ("", { try await server.code(for: "ada@example.com") })]
        )
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(upgrade.stderr.contains("A confirmation code was sent to ada@example.com"))
        #expect(upgrade.json["user_id"] as? String == id)
        #expect(upgrade.json["guest"] as? Bool == false)
        #expect(upgrade.json["email"] as? String == "ada@example.com")
    }

    @Test func changeEmailAsksForTheCodesOfBothAddresses() async throws {
        let server = try await EndToEndServer()
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let signup = try await CLIEndToEndTests.gatehouse(
            ["signup", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil), ("", { try await server.code(for: "ada@example.com") })]
        )
        #expect(signup.status == 0, "\(signup.stderr)")

        let change = try await CLIEndToEndTests.gatehouse(
            ["change-email", "--server", url, "--email", "ada@new.example", "--json"],
            config: config,
            answers: [
                ("", { try await server.code(for: "ada@new.example") }),
                ("", { try await server.code(for: "ada@example.com", after: 1) }),
            ]
        )
        #expect(change.status == 0, "\(change.stderr)")
        #expect(change.stderr.contains("A confirmation code was sent to ada@new.example"))
        #expect(change.stderr.contains("A confirmation code was sent to ada@example.com"))
        #expect(change.json["email"] as? String == "ada@new.example")

        let wrong = try await CLIEndToEndTests.gatehouse(
            ["change-email", "--server", url, "--email", "lovelace@example.com"],
            config: config,
            answers: [("000000", nil)]
        )
        #expect(wrong.status != 0, "a wrong code changes nothing")
    }
}
