import Foundation
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// The release `gatehouse-server` (built beside this benchmark) as a child process: the load
/// generator and the server are separate processes on the same cores.
final class ServerChild {
    let port: Int
    let process: Process
    /// From spawn to the first 200 of `GET /health`.
    private(set) var startToFirstResponse: Duration = .zero

    /// What the child runs.
    enum Program {
        /// The release server beside this benchmark.
        case server
        /// This benchmark as ``BareRefreshServer``.
        case bareRefreshServer
    }

    /// How a start ended.
    private enum Start {
        case answered(after: Duration)
        /// The child exited because its port was taken: worth another port.
        case portTaken
        case failed(log: String)
    }

    /// Starts `program` on a port of its own and waits (at most 30 s) for its first 200 of
    /// `GET /health`; a port taken between its draw and the child's bind is drawn again (three
    /// tries).
    init(environment extra: [String: String], directory: URL, program: Program = .server) async throws {
        var attempts = 0
        while true {
            attempts += 1
            let port = Self.unusedPort()
            let process = Process()
            let log = directory.appendingPathComponent("server-\(port).log")
            switch try await Self.start(process, program: program, port: port, environment: extra, log: log) {
            case .answered(let duration):
                self.port = port
                self.process = process
                startToFirstResponse = duration
                return
            case .portTaken where attempts < 3:
                continue
            case .portTaken:
                throw LoadError.unexpected("the server found its port taken \(attempts) times")
            case .failed(let log):
                throw LoadError.unexpected("the server did not start: \(log)")
            }
        }
    }

    /// A port below the kernel's range for the local ports of outgoing connections
    /// (`/proc/sys/net/ipv4/ip_local_port_range`), from which the load generator's, the pools' and
    /// pgbench's connections take theirs: a port drawn inside it can be taken by one of them
    /// between the draw and the child's bind.
    private static func unusedPort() -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let ephemeralStart = range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        return Int.random(in: 10_000..<max(ephemeralStart, 10_001))
    }

    private static func start(
        _ process: Process,
        program: Program,
        port: Int,
        environment extra: [String: String],
        log: URL
    ) async throws -> Start {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
        )
        switch program {
        case .server:
            process.executableURL = me.deletingLastPathComponent().appendingPathComponent("gatehouse-server")
        case .bareRefreshServer:
            process.executableURL = me
            process.arguments = [BareRefreshServer.argument]
        }
        var environment = ProcessInfo.processInfo.environment
        environment["GATEHOUSE_PORT"] = String(port)
        environment["GATEHOUSE_LOG_LEVEL"] = "error"
        for bucket in ["TOKEN", "VERIFY", "OTP", "ANONYMOUS", "EMAIL_SENT"] {
            environment["GATEHOUSE_RATE_LIMIT_\(bucket)"] = "1000000"
        }
        environment.merge(extra) { $1 }
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        let clock = ContinuousClock()
        let spawned = clock.now
        try process.run()
        while clock.now - spawned < .seconds(30) {
            // Only while the child runs: a listener of someone else's on the port must not pass.
            guard process.isRunning else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return text.contains("Address already in use") ? .portTaken : .failed(log: text)
            }
            if let status = try? await HTTPConnection.with(port: port, { try await $0.send(.GET, "/health").status }),
                status == 200
            {
                return .answered(after: clock.now - spawned)
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        kill(process.processIdentifier, SIGKILL)
        return .failed(log: "no answer in 30 s; " + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
    }

    /// Resident memory of the server process, in MiB (`VmRSS`).
    var residentMiB: Double { Self.residentMiB(of: process.processIdentifier) }

    /// Resident memory of the process `pid`, in MiB (`VmRSS`).
    static func residentMiB(of pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kilobytes / 1024
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<250 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
