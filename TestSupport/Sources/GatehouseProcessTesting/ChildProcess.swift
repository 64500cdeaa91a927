public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests, spawned with `posix_spawn` and the file descriptors from 3 up
/// closed in the child (`posix_spawn_file_actions_addclosefrom_np`), so it inherits only its
/// standard streams. Every wait on it is bounded: past its time the child is killed.
///
/// Not Foundation's `Process`: on Linux it emulates closing the descriptors by listing
/// `/proc/self/fd`, copying each entry's whole 256-byte name field; with more than about 1,360
/// descriptors open (the server suite's SQLite files and sockets, all tests at once) the last
/// entries sit at the end of the directory buffer and the copy reads past it. Two runs of the
/// suite in five crashed there (SIGSEGV in `Process.run()`). And its `waitUntilExit()` spins
/// forever when Foundation misses a child's exit: a CLI test run hung there at 94 % CPU, its
/// server gone.
public final class ChildProcess: @unchecked Sendable {
    /// A standard stream of the child: a pipe, an open file, or `/dev/null`.
    public enum Stream: Sendable {
        /// A pipe: the child gets the reading end of its standard input, the writing end of an
        /// output; this side closes the child's end once the child runs.
        case pipe(Pipe)
        /// An open file (a log), shared with the child.
        case file(FileHandle)
        /// `/dev/null`.
        case null
    }

    /// The program to run (a path; no `PATH` search: `/usr/bin/env` runs one by name).
    public var executableURL: URL?
    /// The arguments after the program's own name.
    public var arguments: [String] = []
    /// The child's environment; `nil` passes this process's own.
    public var environment: [String: String]?
    /// The child's standard input; `/dev/null` unless set.
    public var standardInput: Stream = .null
    /// The child's standard output; `/dev/null` unless set.
    public var standardOutput: Stream = .null
    /// The child's standard error; `/dev/null` unless set.
    public var standardError: Stream = .null

    /// The child's process id once it runs; 0 before.
    public private(set) var processIdentifier: Int32 = 0
    private let status = Locked<Int32?>(nil)

    /// A child to configure, then start with ``run()``.
    public init() {}

    /// A child of `executable` with `arguments`, configured for ``run()``.
    public convenience init(_ executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil) {
        self.init()
        executableURL = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// Whether the child was started and has not been seen to exit.
    public var isRunning: Bool { processIdentifier != 0 && !hasExited() }

    /// The exit status (or the signal's number for a child killed by one), once it exited.
    public var terminationStatus: Int32 {
        guard let raw = status.withLock({ $0 }) else { preconditionFailure("the child is still running") }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    /// Starts the child.
    public func run() throws {
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

    /// Starts the child, and kills it (SIGKILL) if it still runs `limit` from now: a hung child
    /// then fails its test instead of hanging the suite (its pipes close, so reads of them end).
    /// Past the limit, a child already seen to exit is left alone (its process id may be
    /// another's by then).
    public func run(killingAfter limit: Duration) throws {
        try run()
        Task.detached { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.kill()
        }
    }

    /// Whether the child has exited, without waiting (its status is then kept).
    public func hasExited() -> Bool {
        guard processIdentifier != 0 else { return false }
        if status.withLock({ $0 }) != nil { return true }
        var raw: Int32 = 0
        guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return false }
        status.withLock { $0 = raw }
        return true
    }

    /// Sends `signal` to the child (SIGTERM asks it to stop, SIGINT is Ctrl-C), if it runs.
    public func signal(_ signal: Int32) {
        guard isRunning else { return }
        posixKill(processIdentifier, signal)
    }

    /// Waits up to `timeout` for the child to exit; past it, kills it (SIGKILL) and waits for
    /// that. Returns whether it exited by itself.
    @discardableResult
    public func waitUntilExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if hasExited() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        await kill()
        return false
    }

    /// Blocks until the child exits, for at most `timeout` (then kills it): for the synchronous
    /// callers (a test trait's condition, a `defer`). Returns whether it exited by itself.
    @discardableResult
    public func waitUntilExitBlocking(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if hasExited() { return true }
            usleep(10_000)
        }
        killBlocking()
        return false
    }

    /// SIGKILL (no cleanup in the child), then waits for it to be gone.
    public func kill() async {
        guard isRunning else { return }
        await Blocking.run { self.killBlocking() }
    }

    /// SIGKILL and the wait for it, blocking (briefly: a killed child ends at once).
    public func killBlocking() {
        guard isRunning else { return }
        posixKill(processIdentifier, SIGKILL)
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) == -1 {
            guard errno == EINTR else { return }
        }
        status.withLock { $0 = raw }
    }

    /// Writes `line` and a newline to the child's standard input (a ``Stream/pipe(_:)``);
    /// nothing if the child is gone. A child that has already exited (a failed command) must
    /// fail its own test, not kill the suite: with SIGPIPE at its default, writing to the closed
    /// pipe would end the whole test process with signal 13 and leave its server children
    /// running. So SIGPIPE is ignored in this process and the write's EPIPE dropped.
    public func send(_ line: String) {
        guard case .pipe(let pipe) = standardInput else { return }
        _ = Self.sigpipeIgnored
        try? pipe.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes this side of the child's standard input (a ``Stream/pipe(_:)``): the child reads
    /// its end.
    public func closeInput() {
        guard case .pipe(let pipe) = standardInput else { return }
        try? pipe.fileHandleForWriting.close()
    }

    private static let sigpipeIgnored: Bool = {
        ignore(SIGPIPE)
        return true
    }()

    /// What a child run to its end printed, and how it exited.
    public struct Finished: Sendable {
        /// The exit status (or the signal's number).
        public var status: Int32
        /// Its standard output.
        public var output: String
        /// Its standard error.
        public var errors: String
    }

    /// A child that did not end within its time (it was killed).
    public struct TimedOut: Error, CustomStringConvertible {
        /// The command line.
        public let command: String
        /// What it printed on its standard output before it was killed.
        public let output: String
        /// What went wrong, for the test's failure message.
        public var description: String { "\(command) did not end in time and was killed; it printed: \(output)" }
    }

    /// Starts the child with its output and errors piped, reads both to their end off the
    /// cooperative pool, and waits for it for at most `timeout`: past it the child is killed and
    /// ``TimedOut`` thrown.
    public func runToEnd(timeout: Duration = .seconds(120)) async throws -> Finished {
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

    /// `posix_spawn` (or its preparation) failed.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The `errno` value.
        public let code: Int32
        /// What went wrong, for the test's failure message.
        public var description: String { "posix_spawn: \(String(cString: strerror(code)))" }
    }
}

// At file scope: inside `ChildProcess`, its methods `kill()` and `signal(_:)` hide the C functions.

/// `kill(2)`.
private func posixKill(_ process: pid_t, _ number: Int32) {
    _ = kill(process, number)
}

/// `signal(number, SIG_IGN)`.
private func ignore(_ number: Int32) {
    _ = signal(number, SIG_IGN)
}
