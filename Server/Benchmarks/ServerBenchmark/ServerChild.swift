import Foundation
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// The release `gatehouse-server` (built beside this benchmark) as a child process: the load
/// generator and the server are separate processes on the same cores.
final class ServerChild {
    let port: Int
    let process = Process()
    /// From spawn to the first 200 of `GET /health`.
    private(set) var startToFirstResponse: Duration = .zero

    /// What the child runs.
    enum Program {
        /// The release server beside this benchmark.
        case server
        /// This benchmark as ``BareRefreshServer``.
        case bareRefreshServer
    }

    init(environment extra: [String: String], directory: URL, program: Program = .server) async throws {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
        )
        port = Int.random(in: 30_000..<60_000)
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
        let log = directory.appendingPathComponent("server-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        let clock = ContinuousClock()
        let spawned = clock.now
        try process.run()
        while clock.now - spawned < .seconds(30) {
            if let status = try? await HTTPConnection.with(port: port, { try await $0.send(.GET, "/health").status }),
                status == 200
            {
                startToFirstResponse = clock.now - spawned
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        kill(process.processIdentifier, SIGKILL)
        throw LoadError.unexpected("the server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
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
