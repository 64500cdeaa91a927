import Foundation

/// Runs blocking calls (pipe reads, process waits) on a Dispatch thread, never on Swift's
/// cooperative pool: on 2 cores, two blocked pool threads would starve the server under test.
enum Blocking {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }

    /// Waits for `process` to exit, for at most `timeout`: past it the process is killed
    /// (SIGKILL), so that a hung child fails its test instead of hanging the suite.
    static func waitUntilExit(_ process: Process, timeout: Duration = .seconds(300)) async {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        await run { process.waitUntilExit() }
    }
}
