import Foundation
import GatehouseProcessTesting
import Testing

/// The `gatehouse` command as a subprocess against the real server, with answers on stdin.
@Suite(
    "gatehouse CLI against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct CLIEndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// Runs the CLI; `answers` are written to stdin one line at a time, each after the
    /// optional wait (so a code can be read from the server log once it was sent).
    static func gatehouse(
        _ arguments: [String],
        config: URL,
        environment extra: [String: String] = [:],
        answers: [(line: String, before: (@Sendable () async throws -> String)?)] = []
    ) async throws -> Run {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "gatehouse"
        )
        let process = ChildProcess(binary, arguments)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment.removeValue(forKey: "GATEHOUSE_URL")
        environment.merge(extra) { $1 }
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = .pipe(input)
        process.standardOutput = .pipe(output)
        process.standardError = .pipe(errors)
        // A hung command fails the test instead of hanging the suite.
        try process.run(killingAfter: .seconds(60))
        for answer in answers {
            let line = try await answer.before?() ?? answer.line
            process.send(line)
        }
        process.closeInput()
        async let out = Blocking.run { output.fileHandleForReading.readDataToEndOfFile() }
        async let err = Blocking.run { errors.fileHandleForReading.readDataToEndOfFile() }
        let (stdout, stderr) = await (out, err)
        await process.waitUntilExit(timeout: .seconds(300))
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    @Test func signUpConfirmStatusTokenLogoutAndExitCodes() async throws {
        let server = try await EndToEndServer()
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString

        let signup = try await Self.gatehouse(
            ["signup", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil), ("", { try await server.code(for: "ada@example.com") })]
        )
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stdout.contains("Signed up and signed in as ada@example.com"))
        #expect(!signup.stdout.contains("correct horse battery") && !signup.stderr.contains("correct horse battery"))

        let session = config.appendingPathComponent("gatehouse").appendingPathComponent(
            "session-127.0.0.1_\(server.port).json"
        )
        let attributes = try FileManager.default.attributesOfItem(atPath: session.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let status = try await Self.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(status.status == 0)
        #expect(status.json["signed_in"] as? Bool == true)
        #expect(status.json["verified"] as? Bool == true)
        #expect(status.json["email"] as? String == "ada@example.com")

        let whoami = try await Self.gatehouse(["whoami", "--server", url], config: config)
        #expect(whoami.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ada@example.com")

        let token = try await Self.gatehouse(["token", "--server", url], config: config)
        #expect(token.status == 0)
        #expect(token.stdout.split(separator: ".").count == 3, "a JWT")

        let logout = try await Self.gatehouse(["logout", "--server", url], config: config)
        #expect(logout.status == 0)
        #expect(!FileManager.default.fileExists(atPath: session.path))

        let signedOut = try await Self.gatehouse(["whoami", "--server", url], config: config)
        #expect(signedOut.status == 3, "not signed in")
        #expect(signedOut.stderr.contains("gatehouse login"))

        let wrong = try await Self.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("not the password", nil)]
        )
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("Invalid login credentials"))

        let login = try await Self.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com", "--json"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(login.status == 0)
        #expect(login.json["signed_in"] as? Bool == true)

        let usage = try await Self.gatehouse(["login", "--guest", "--magic-code", "--server", url], config: config)
        #expect(usage.status == 2)
    }

    @Test func guestUpgradeKeepsTheIDAndTheSessionSurvivesTheServerBeingDown() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString

        let guest = try await Self.gatehouse(["login", "--guest", "--server", url, "--json"], config: config)
        #expect(guest.status == 0)
        let id = try #require(guest.json["user_id"] as? String)
        #expect(guest.json["guest"] as? Bool == true)

        let upgrade = try await Self.gatehouse(
            ["upgrade", "--server", url, "--email", "ada@example.com", "--json"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(upgrade.json["user_id"] as? String == id)
        #expect(upgrade.json["guest"] as? Bool == false)

        server.stop()
        let offline = try await Self.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(offline.status == 0)
        #expect(offline.json["signed_in"] as? Bool == true, "offline-first: still signed in")
        #expect(offline.json["verified"] as? Bool == false)

        let logout = try await Self.gatehouse(["logout", "--server", url], config: config)
        #expect(logout.status == 0, "sign-out works with the server down")
        let after = try await Self.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(after.json["signed_in"] as? Bool == false)
        #expect(after.status == 3, "scripts check sign-in with status")

        try await server.restart(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        let login = try await Self.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(login.status == 0)
        let delete = try await Self.gatehouse(["delete-account", "--yes", "--server", url], config: config)
        #expect(delete.status == 0, "\(delete.stderr)")
        let gone = try await Self.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(gone.status == 1)
    }

    @Test func aHostileServerEndsInAClearErrorAndKeepsTheSession() async throws {
        let server = try await EndToEndServer()
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        _ = try await Self.gatehouse(["login", "--guest", "--server", url], config: config)
        let before = try await Self.gatehouse(["token", "--server", url, "--json"], config: config)
        server.stop()
        // Something that is not a Gatehouse server answers on the port now.
        let impostor = try await StaticFileServer(directory: server.directory, port: server.port)

        // A fresh stored token needs no server (offline-first): the same token, at once.
        let token = try await Self.gatehouse(["token", "--server", url, "--json"], config: config)
        #expect(token.status == 0)
        #expect(token.json["access_token"] as? String == before.json["access_token"] as? String)
        // A call that needs the server ends in a clear error: exit 1 (not a signal), the
        // message a person reads.
        let sessions = try await Self.gatehouse(["sessions", "--server", url], config: config)
        #expect(sessions.status == 1, "a clear failure, never a crash: \(sessions.stderr)")
        #expect(sessions.stderr.contains("The server answered HTTP 404"), "\(sessions.stderr)")
        let status = try await Self.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(status.json["signed_in"] as? Bool == true, "the good stored session stays")
        await impostor.stop()
    }
}

@Suite("gatehouse login --magic-code", .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)"))
struct CLIMagicCodeTests {
    @Test func magicCodeLoginSignsInWithTheEmailedCode() async throws {
        let server = try await EndToEndServer()
        let config = server.directory.appendingPathComponent("config")
        let login = try await CLIEndToEndTests.gatehouse(
            ["login", "--magic-code", "--server", server.url.absoluteString, "--email", "ada@example.com", "--json"],
            config: config,
            answers: [("", { try await server.code(for: "ada@example.com") })]
        )
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.json["email"] as? String == "ada@example.com")
        #expect(login.json["verified"] as? Bool == true)
    }
}

@Suite("Server lifecycle", .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)"))
struct ServerLifecycleTests {
    @Test func sigtermShutsTheServerDownGracefully() async throws {
        let server = try await EndToEndServer()
        let status = server.terminate(within: 5)
        #expect(status == 0, "exited cleanly on SIGTERM")
        #expect(server.log.contains("Gatehouse stopped"))
    }

    @Test func aBadSettingStopsTheStartNamingTheVariable() async throws {
        let binary = try #require(EndToEndServer.binary)
        let process = ChildProcess(
            URL(fileURLWithPath: binary),
            environment: ["GATEHOUSE_JWT_EXP": "forever", "PATH": "/usr/bin:/bin"]
        )
        let finished = try await process.runToEnd(timeout: .seconds(60))
        #expect(finished.status != 0)
        #expect(finished.errors.contains("GATEHOUSE_JWT_EXP"))
    }
}
