import Foundation
import GatehouseProcessTesting
import Testing

/// Several `gatehouse` processes sharing one session file, against the real server behind a
/// proxy that counts the refresh requests that reach it.
@Suite(
    "One refresh across processes sharing a session file",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct MultiProcessRefreshTests {
    @Test func eightProcessesAtExpiryMakeOneRefreshAndAllAdoptIt() async throws {
        let server = try await EndToEndServer()
        defer { server.stop() }
        let proxy = try await CountingProxy(upstream: server.url)
        defer { proxy.stop() }
        let config = server.directory.appendingPathComponent("config")
        let url = proxy.url.absoluteString

        let login = try await CLIEndToEndTests.gatehouse(["login", "--guest", "--server", url], config: config)
        #expect(login.status == 0, "\(login.stderr)")
        let sessionFile = try Self.sessionFile(in: config)
        try Self.expire(sessionFile)
        let before = try await proxy.refreshCount()

        let runs = try await withThrowingTaskGroup(of: CLIEndToEndTests.Run.self) { group in
            for _ in 0..<8 {
                group.addTask { try await CLIEndToEndTests.gatehouse(["token", "--server", url], config: config) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        let tokens = Set(runs.map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(tokens.count == 1, "every process ends with the same access token")
        #expect(try await proxy.refreshCount() - before == 1, "exactly one refresh reached the server")
        let status = try await CLIEndToEndTests.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(status.json["signed_in"] as? Bool == true, "nobody was signed out")
        #expect(status.json["verified"] as? Bool == true)
    }

    @Test func aHolderKilledWithSIGKILLDoesNotBlockTheOthers() async throws {
        let server = try await EndToEndServer()
        defer { server.stop() }
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let login = try await CLIEndToEndTests.gatehouse(["login", "--guest", "--server", url], config: config)
        #expect(login.status == 0, "\(login.stderr)")
        let sessionFile = try Self.sessionFile(in: config)
        try Self.expire(sessionFile)

        // Another process takes the lock and hangs, as if stuck in the middle of a refresh.
        let holder = ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                    + "print('locked', flush=True); time.sleep(120)",
                sessionFile.path + ".lock",
            ]
        )
        let holderOutput = Pipe()
        holder.standardOutput = .pipe(holderOutput)
        try holder.run()
        let locked = await Blocking.run { holderOutput.fileHandleForReading.availableData }
        #expect(String(decoding: locked, as: UTF8.self).contains("locked"))

        let waiting = Task { try await CLIEndToEndTests.gatehouse(["token", "--server", url], config: config) }
        try await Task.sleep(for: .milliseconds(500))
        let expiredStill = try Self.storedExpiry(sessionFile) < Date()
        #expect(expiredStill, "nothing refreshed while the lock is held")

        await holder.kill()
        let started = Date()
        let run = try await waiting.value

        #expect(run.status == 0, "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 20, "freed when the holder died, not at a timeout")
        #expect(try Self.storedExpiry(sessionFile) > Date())
    }

    static func sessionFile(in config: URL) throws -> URL {
        let folder = config.appendingPathComponent("gatehouse")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        return folder.appendingPathComponent(try #require(names.first))
    }

    /// Moves the stored access token's expiry into the past, as if the app slept past it.
    static func expire(_ file: URL) throws {
        var envelope = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var session = try #require(envelope["session"] as? [String: Any])
        session["expiresAt"] = Date().addingTimeInterval(-600).timeIntervalSinceReferenceDate
        envelope["session"] = session
        try JSONSerialization.data(withJSONObject: envelope).write(to: file)
    }

    static func storedExpiry(_ file: URL) throws -> Date {
        let envelope = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let session = envelope?["session"] as? [String: Any]
        return Date(timeIntervalSinceReferenceDate: try #require(session?["expiresAt"] as? Double))
    }
}
