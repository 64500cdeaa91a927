import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `gatehouse-server` process on a free loopback port with a temporary SQLite file.
///
/// The binary comes from `GATEHOUSE_SERVER_BIN` (scripts/test builds the server and sets it).
/// Mail goes to the server log (no SMTP configured); ``code(for:)`` reads codes from there.
final class ServerProcess: @unchecked Sendable {
    static var binary: String? { ProcessInfo.processInfo.environment["GATEHOUSE_SERVER_BIN"] }
    static var available: Bool {
        binary.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false
    }

    let directory: URL
    let port: Int
    let logURL: URL
    private var process: Process?
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(environment extra: [String: String] = [:]) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logURL = directory.appendingPathComponent("server.log")
        port = Self.freePort()
        try await start(environment: extra)
    }

    func start(environment extra: [String: String] = [:]) async throws {
        let binary = try #require(Self.binary, "GATEHOUSE_SERVER_BIN is not set")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        var environment = ProcessInfo.processInfo.environment
        environment["GATEHOUSE_PORT"] = String(port)
        environment["GATEHOUSE_DATABASE_URL"] = directory.appendingPathComponent("gatehouse.sqlite").path
        environment["GATEHOUSE_BCRYPT_COST"] = "4"
        environment.merge(extra) { $1 }
        process.environment = environment
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        // Up to 30 s: on 2 shared cores under load, a start (migrations, the pool) took longer than 6 s
        // and the contract's server worlds failed with an empty log.
        for _ in 0..<1500 {
            if (try? String(contentsOf: logURL, encoding: .utf8))?.contains("Server started") == true { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ServerProcessError.didNotStart(String((try? String(contentsOf: logURL, encoding: .utf8)) ?? ""))
    }

    /// Sends SIGTERM and waits up to `seconds` for a clean exit. - Returns: the exit status, or
    /// `nil` if it had to be killed.
    func terminate(within seconds: Double = 5) -> Int32? {
        guard let process, process.isRunning else { return nil }
        process.terminate()
        for _ in 0..<Int(seconds * 50) where process.isRunning { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit(within: 10)
            self.process = nil
            return nil
        }
        self.process = nil
        return process.terminationStatus
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        for _ in 0..<250 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitForExit(within: 10)
        self.process = nil
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
        throw ServerProcessError.noCode(email)
    }

    func codes(for email: String) -> [String] {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("mail.to=\(email)") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("mail.code=") }.map {
                String($0.dropFirst("mail.code=".count))
            }
        }
    }

    /// Moves every session's authentication times (`amr`, read on every request) `seconds` into
    /// the past in the server's SQLite file, as if the sign-ins were that old: the sensitive
    /// actions' 10-minute rule can then be tested against the running binary, whose clock is the
    /// machine's. Python's `sqlite3` writes beside the server (WAL; both wait on a busy database).
    func backdateSignIns(by seconds: Int) throws {
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", script, directory.appendingPathComponent("gatehouse.sqlite").path, String(seconds),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let counted = output.fileHandleForReading.readDataToEndOfFile()
        guard process.waitForExit(within: 60) else { throw ServerProcessError.backdatingFailed(status: -1) }
        let sessions = Int(String(decoding: counted, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        guard process.terminationStatus == 0, let sessions, sessions > 0 else {
            throw ServerProcessError.backdatingFailed(status: process.terminationStatus)
        }
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

enum ServerProcessError: Error {
    case didNotStart(String)
    case noCode(String)
    /// The sessions could not be backdated (python3's exit status, or no session found).
    case backdatingFailed(status: Int32)
}

/// Whether end-to-end tests must run: always in CI, where scripts/test builds the server.
enum EndToEnd {
    static var enabled: Bool { ServerProcess.available || ProcessInfo.processInfo.environment["CI"] != nil }
}
