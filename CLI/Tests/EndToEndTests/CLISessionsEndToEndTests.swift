import Foundation
import Testing

/// `gatehouse sessions` and `gatehouse sessions end`: two config folders are two devices.
@Suite(
    "gatehouse sessions against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct CLISessionsEndToEndTests {
    typealias CLI = CLIEndToEndTests

    @Test func oneDeviceEndsTheOthersSessionAndTheOtherFindsItselfSignedOut() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        let url = server.url.absoluteString
        let laptop = server.directory.appendingPathComponent("laptop")
        let desktop = server.directory.appendingPathComponent("desktop")
        let signup = try await CLI.gatehouse(
            ["signup", "--server", url, "--email", "ada@example.com"],
            config: laptop,
            environment: ["GATEHOUSE_DEVICE_NAME": "laptop"],
            answers: [("correct horse battery", nil)]
        )
        #expect(signup.status == 0, "\(signup.stderr)")
        let login = try await CLI.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com"],
            config: desktop,
            environment: ["GATEHOUSE_DEVICE_NAME": "desktop"],
            answers: [("correct horse battery", nil)]
        )
        #expect(login.status == 0, "\(login.stderr)")

        let table = try await CLI.gatehouse(["sessions", "--server", url], config: laptop)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("desktop") && table.stdout.contains("laptop"), "\(table.stdout)")
        let list = try await CLI.gatehouse(["sessions", "--server", url, "--json"], config: laptop)
        let sessions = try #require(list.json["sessions"] as? [[String: Any]], "\(list.stdout)")
        #expect(sessions.map { $0["device"] as? String } == ["desktop", "laptop"])
        #expect(sessions.map { $0["current"] as? Bool } == [false, true])
        #expect(sessions.allSatisfy { $0["ip"] as? String == "127.0.0.1" })
        let desktopID = try #require(sessions[0]["id"] as? String)

        let end = try await CLI.gatehouse(["sessions", "end", desktopID, "--server", url, "--json"], config: laptop)
        #expect(end.status == 0, "\(end.stderr)")
        #expect(end.json["signed_out"] as? Bool == false)

        // The desktop's next command finds itself signed out (exit 3), and stays so.
        let next = try await CLI.gatehouse(["sessions", "--server", url], config: desktop)
        #expect(next.status == 3, "\(next.stdout) \(next.stderr)")
        #expect(next.stderr.contains("gatehouse login") || next.stderr.contains("Sign in"), "\(next.stderr)")
        #expect(try await CLI.gatehouse(["status", "--server", url], config: desktop).status == 3)
        #expect(try await CLI.gatehouse(["status", "--server", url], config: laptop).status == 0)

        let again = try await CLI.gatehouse(["sessions", "end", desktopID, "--server", url], config: laptop)
        #expect(again.status == 1 && again.stderr.contains("No session"), "\(again.stderr)")
        let usage = try await CLI.gatehouse(["sessions", "end", "not-an-id", "--server", url], config: laptop)
        #expect(usage.status == 2)

        let laptopID = try #require(sessions[1]["id"] as? String)
        let own = try await CLI.gatehouse(["sessions", "end", laptopID, "--server", url], config: laptop)
        #expect(own.status == 0 && own.stdout.contains("signed out"), "\(own.stdout)")
        #expect(try await CLI.gatehouse(["status", "--server", url], config: laptop).status == 3)
        server.stop()
    }
}
