public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `gatehouse-server` process on a free loopback port, its standard output and error in a log
/// file: for tests that run the real binary (several instances, a restart, a hard kill, the
/// CLI against it). Settings come from the environment (`GATEHOUSE_PORT` is set here).
public final class ServerProcess: @unchecked Sendable {
    /// The server binary.
    public let binary: URL
    /// The loopback port it listens on, the same across ``restart(environment:)``.
    public let port: Int
    /// The log: what the server prints, across restarts.
    public let logURL: URL
    /// How long a start may take before it fails with the log.
    public let startupTimeout: Duration
    private let environment: [String: String]
    private let child = Locked<ChildProcess?>(nil)

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts `binary` with this process's environment and `environment` over it, on a free
    /// loopback port, logging to `server-<port>.log` in `logDirectory`, and returns once it
    /// answers HTTP (`GET /health`, with any status). Throws ``ServerProcessError/didNotStart(_:)``
    /// with the log if it exits first or does not answer within `startupTimeout` (it is killed
    /// then).
    public init(
        binary: URL,
        environment: [String: String] = [:],
        logDirectory: URL,
        startupTimeout: Duration = .seconds(60)
    ) async throws {
        self.binary = binary
        self.environment = environment
        self.startupTimeout = startupTimeout
        port = LoopbackPort.free()
        logURL = logDirectory.appendingPathComponent("server-\(port).log")
        try await start(environment: environment)
    }

    /// The server's process id while it runs (0 once stopped).
    public var processIdentifier: Int32 { child.withLock { $0?.isRunning == true ? $0!.processIdentifier : 0 } }

    /// Whether the server process runs.
    public var isRunning: Bool { processIdentifier != 0 }

    /// How the last run ended: its exit status (or the signal's number), `nil` while it runs.
    public var terminationStatus: Int32? {
        child.withLock { process in
            guard let process, process.hasExited() else { return nil }
            return process.terminationStatus
        }
    }

    /// The server's log so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Starts the server again on the same port (the same database, when the environment names
    /// a file), after a stop; `environment` replaces the first start's extra settings when given.
    /// The log goes on in the same file.
    public func restart(environment: [String: String]? = nil) async throws {
        await stop()
        try await start(environment: environment ?? self.environment)
    }

    /// SIGTERM, the graceful shutdown; past `timeout`, SIGKILL. Returns whether it stopped by
    /// itself (or was not running).
    @discardableResult
    public func stop(timeout: Duration = .seconds(30)) async -> Bool {
        guard let process = running() else { return true }
        process.signal(SIGTERM)
        return await process.waitUntilExit(timeout: timeout)
    }

    /// ``stop(timeout:)`` for synchronous callers (a `defer`): blocks the calling thread for up
    /// to `timeout`.
    @discardableResult
    public func stopBlocking(timeout: Duration = .seconds(30)) -> Bool {
        guard let process = running() else { return true }
        process.signal(SIGTERM)
        return process.waitUntilExitBlocking(timeout: timeout)
    }

    /// SIGKILL: no shutdown, no flush; what was committed must survive.
    public func kill() async {
        await running()?.kill()
    }

    /// Waits up to `timeout` for `text` to appear in the server's log; throws
    /// ``ServerProcessError/noLogLine(_:_:)`` with the log past it.
    public func waitForLog(_ text: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !log.contains(text) {
            guard ContinuousClock.now < deadline else { throw ServerProcessError.noLogLine(text, log) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        running()?.killBlocking()
    }

    private func running() -> ChildProcess? {
        child.withLock { $0?.isRunning == true ? $0 : nil }
    }

    private func start(environment extra: [String: String]) async throws {
        if !FileManager.default.fileExists(atPath: logURL.path) {
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logURL)
        try log.seekToEnd()
        var environment = ProcessInfo.processInfo.environment
        environment["GATEHOUSE_PORT"] = String(port)
        environment.merge(extra) { $1 }
        let process = ChildProcess(binary, environment: environment)
        process.standardOutput = .file(log)
        process.standardError = .file(log)
        try process.run()
        child.withLock { $0 = process }
        let deadline = ContinuousClock.now + startupTimeout
        let port = port
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw ServerProcessError.didNotStart(self.log) }
            if await Blocking.run({ LoopbackPort.answersHTTP(port, path: "/health", timeout: .seconds(2)) }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        await process.kill()
        throw ServerProcessError.didNotStart(self.log)
    }
}

/// Why a ``ServerProcess`` (or another server a test starts) failed.
public enum ServerProcessError: Error, CustomStringConvertible {
    /// It did not start: its log, or what else stood in the way.
    case didNotStart(String)
    /// The log line (first) did not appear in time: the log (second).
    case noLogLine(String, String)

    /// What went wrong, for the test's failure message.
    public var description: String {
        switch self {
        case .didNotStart(let log): "the server did not start; its log:\n\(log)"
        case .noLogLine(let line, let log): "no \"\(line)\" in the server's log:\n\(log)"
        }
    }
}
