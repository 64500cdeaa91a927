import Foundation
import GatehouseServerSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests, spawned with `posix_spawn` and the file descriptors from 3 up
/// closed in the child (`posix_spawn_file_actions_addclosefrom_np`), so it inherits only its
/// standard streams.
///
/// Not Foundation's `Process`: on Linux it emulates closing the descriptors by listing
/// `/proc/self/fd`, copying each entry's whole 256-byte name field; with more than about 1,360
/// descriptors open (the suite's SQLite files and sockets, all tests at once) the last entries
/// sit at the end of the directory buffer and the copy reads past it. Two runs of the suite in
/// five crashed there (SIGSEGV in `Process.run()`).
final class ChildProcess: @unchecked Sendable {
    /// A standard stream of the child: a pipe, an open file, or `/dev/null`.
    enum Stream {
        case pipe(Pipe)
        case file(FileHandle)
        case null
    }

    var executableURL: URL?
    var arguments: [String] = []
    /// The child's environment; `nil` passes this process's own.
    var environment: [String: String]?
    var standardInput: Stream = .null
    var standardOutput: Stream = .null
    var standardError: Stream = .null

    private(set) var processIdentifier: pid_t = 0
    private let status = Mutex<Int32?>(nil)

    /// Whether the child was started and has not been seen to exit.
    var isRunning: Bool { processIdentifier != 0 && status.withLock { $0 } == nil }

    /// The exit status (or the signal's number for a child killed by one), once it exited.
    var terminationStatus: Int32 {
        guard let raw = status.withLock({ $0 }) else { preconditionFailure("the child is still running") }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    init() {}

    /// Starts the child.
    func run() throws {
        guard let executableURL else { throw SpawnError(code: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let streams: [(Stream, Int32, Bool)] = [
            (standardInput, STDIN_FILENO, true), (standardOutput, STDOUT_FILENO, false),
            (standardError, STDERR_FILENO, false),
        ]
        for (stream, target, isInput) in streams {
            let source: Int32
            switch stream {
            case .pipe(let pipe):
                source = isInput ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
            case .file(let handle): source = handle.fileDescriptor
            case .null: source = null
            }
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        try Self.closeFrom(3, in: &actions)

        let path = executableURL.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        let envp = environment + [nil]
        defer {
            for pointer in argv + environment { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw SpawnError(code: result) }
        processIdentifier = pid

        // The child's ends belong to the child now; this side keeps its own (once each: one pipe
        // may carry both output streams).
        var closed: Set<ObjectIdentifier> = []
        for (stream, _, isInput) in streams {
            guard case .pipe(let pipe) = stream else { continue }
            let end = isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            if closed.insert(ObjectIdentifier(end)).inserted { try? end.close() }
        }
    }

    /// Blocks until the child exits (call it through ``Blocking``, off the cooperative pool).
    func waitUntilExit() {
        guard processIdentifier != 0, status.withLock({ $0 }) == nil else { return }
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) == -1 {
            guard errno == EINTR else { return }
        }
        status.withLock { $0 = raw }
    }

    /// Whether the child has exited, without waiting (its status is then kept).
    func hasExited() -> Bool {
        guard processIdentifier != 0 else { return false }
        if status.withLock({ $0 }) != nil { return true }
        var raw: Int32 = 0
        guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return false }
        status.withLock { $0 = raw }
        return true
    }

    /// Waits up to `timeout` for the child to exit; past it, kills it (SIGKILL) and waits for
    /// that. Returns whether it exited by itself.
    @discardableResult
    func waitUntilExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if hasExited() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        kill(processIdentifier, SIGKILL)
        await Blocking.waitUntilExit(self)
        return false
    }

    /// Blocks until the child exits, for at most `timeout` (then kills it): for the synchronous
    /// callers (a test trait's condition). Returns whether it exited by itself.
    @discardableResult
    func waitUntilExitBlocking(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if hasExited() { return true }
            usleep(10_000)
        }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        return false
    }

    /// What a child run to its end printed, and how it exited.
    struct Finished {
        var status: Int32
        var output: String
        var errors: String
    }

    /// A child that did not end within its time (it was killed).
    struct TimedOut: Error, CustomStringConvertible {
        let command: String
        let output: String
        var description: String { "\(command) did not end in time and was killed; it printed: \(output)" }
    }

    /// Starts the child with its output and errors piped, reads both to their end off the
    /// cooperative pool, and waits for it for at most `timeout`: past it the child is killed and
    /// ``TimedOut`` thrown.
    func runToEnd(timeout: Duration = .seconds(120)) async throws -> Finished {
        let output = Pipe()
        let errors = Pipe()
        standardOutput = .pipe(output)
        standardError = .pipe(errors)
        try run()
        async let out = Blocking.run { output.fileHandleForReading.readDataToEndOfFile() }
        async let err = Blocking.run { errors.fileHandleForReading.readDataToEndOfFile() }
        let exited = await waitUntilExit(timeout: timeout)
        let finished = Finished(
            status: exited ? terminationStatus : -1,
            output: String(decoding: await out, as: UTF8.self),
            errors: String(decoding: await err, as: UTF8.self)
        )
        guard exited else {
            throw TimedOut(command: ([executableURL?.path ?? ""] + arguments).joined(separator: " "), output: finished.output)
        }
        return finished
    }

    /// Adds "close every descriptor from `lowest` up" to `actions` (glibc 2.34 and later; looked
    /// up at run time, since Swift's Glibc module does not declare it).
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { throw SpawnError(code: ENOSYS) }
        let result = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
        guard result == 0 else { throw SpawnError(code: result) }
    }

    struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "posix_spawn: \(String(cString: strerror(code)))" }
    }
}
