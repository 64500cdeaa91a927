import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes a test's answers to a child process's standard input. A child that has already
/// exited (a failed command) must fail its own test, not kill the suite: with SIGPIPE at its
/// default, writing to the closed pipe would end the whole test process with signal 13 and
/// leave its server children running. So SIGPIPE is ignored here and the write's EPIPE dropped;
/// the test then reads the child's status and output.
enum ChildInput {
    private static let sigpipeIgnored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// Writes `line` and a newline to `pipe`; nothing if the child is gone.
    static func send(_ line: String, to pipe: Pipe) {
        _ = sigpipeIgnored
        try? pipe.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }
}
