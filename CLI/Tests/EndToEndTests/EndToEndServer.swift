import Foundation
import GatehouseProcessTesting
import Testing

/// A real `gatehouse-server` process (GatehouseProcessTesting's `ServerProcess`) with the
/// end-to-end tests' defaults: a temporary folder of its own holding a fresh SQLite file, the
/// log and the CLI's configuration, and bcrypt at its lowest cost.
///
/// The binary comes from `GATEHOUSE_SERVER_BIN` (scripts/test builds the server and sets it).
/// Mail goes to the server log (no SMTP configured); ``code(for:after:)`` reads codes from there.
final class EndToEndServer: Sendable {
    static var binary: String? { ProcessInfo.processInfo.environment["GATEHOUSE_SERVER_BIN"] }
    static var available: Bool {
        binary.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false
    }

    /// The server's folder (removed when the server is released).
    let directory: URL
    private let process: ServerProcess

    var port: Int { process.port }
    var url: URL { process.url }
    var log: String { process.log }
    private var database: URL { directory.appendingPathComponent("gatehouse.sqlite") }

    init(environment extra: [String: String] = [:]) async throws {
        let binary = try #require(Self.binary, "GATEHOUSE_SERVER_BIN is not set")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        do {
            process = try await ServerProcess(
                binary: URL(fileURLWithPath: binary),
                environment: Self.environment(in: directory, extra),
                logDirectory: directory
            )
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts the server again on the same port with the same database, after ``stop()``.
    func restart(environment extra: [String: String] = [:]) async throws {
        try await process.restart(environment: Self.environment(in: directory, extra))
    }

    /// Sends SIGTERM and waits up to `seconds` for a clean exit. - Returns: the exit status, or
    /// `nil` if it had to be killed.
    func terminate(within seconds: Int = 5) -> Int32? {
        process.stopBlocking(timeout: .seconds(seconds)) ? process.terminationStatus : nil
    }

    /// SIGTERM; SIGKILL after 5 seconds.
    func stop() {
        process.stopBlocking(timeout: .seconds(5))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The newest code the server "mailed" to `email` (after `after` codes were already sent).
    func code(for email: String, after count: Int = 0) async throws -> String {
        for _ in 0..<500 {
            let codes = self.codes(for: email)
            if codes.count > count, let code = codes.last { return code }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw EndToEndServerError.noCode(email)
    }

    func codes(for email: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains("mail.to=\(email)") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("mail.code=") }.map {
                String($0.dropFirst("mail.code=".count))
            }
        }
    }

    /// Moves every session's authentication times (`amr`, read on every request) `seconds` into
    /// the past in the server's SQLite file, as if the sign-ins were that old: the sensitive
    /// actions' 10-minute rule can then be tested against the running binary, whose clock is the
    /// machine's. Python's `sqlite3` writes beside the server (WAL; both wait on a busy database).
    func backdateSignIns(by seconds: Int) async throws {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=10)
            with db:
                for key, amr in db.execute("SELECT id, amr FROM sessions").fetchall():
                    entries = json.loads(amr)
                    for entry in entries:
                        entry["timestamp"] -= int(sys.argv[2])
                    db.execute("UPDATE sessions SET amr = ? WHERE id = ?", (json.dumps(entries, separators=(",", ":")), key))
            print(db.execute("SELECT count(*) FROM sessions").fetchone()[0])
            """
        let python = ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", script, database.path, String(seconds)]
        )
        guard let finished = try? await python.runToEnd(timeout: .seconds(60)) else {
            throw EndToEndServerError.backdatingFailed(status: -1)
        }
        let sessions = Int(finished.output.trimmingCharacters(in: .whitespacesAndNewlines))
        guard finished.status == 0, let sessions, sessions > 0 else {
            throw EndToEndServerError.backdatingFailed(status: finished.status)
        }
    }

    /// The settings every end-to-end server gets, then `extra` over them.
    private static func environment(in directory: URL, _ extra: [String: String]) -> [String: String] {
        [
            "GATEHOUSE_DATABASE_URL": directory.appendingPathComponent("gatehouse.sqlite").path,
            "GATEHOUSE_BCRYPT_COST": "4",
        ].merging(extra) { $1 }
    }
}

enum EndToEndServerError: Error {
    case noCode(String)
    /// The sessions could not be backdated (python3's exit status, or no session found).
    case backdatingFailed(status: Int32)
}

/// Whether end-to-end tests must run: always in CI, where scripts/test builds the server.
enum EndToEnd {
    static var enabled: Bool { EndToEndServer.available || ProcessInfo.processInfo.environment["CI"] != nil }
}
