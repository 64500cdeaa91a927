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
        _ = await run { process.waitForExit(within: 10) }
    }
}

extension Process {
    /// Waits at most `seconds` for the process to end, by polling `isRunning`; true when it has.
    /// Never Foundation's `waitUntilExit()`, which spins forever when Foundation misses a child's
    /// exit: a CLI test run hung there at 94 % CPU in `ServerProcess.stop()`, its server gone.
    @discardableResult
    func waitForExit(within seconds: Double) -> Bool {
        for _ in 0..<Int(seconds * 50) where isRunning { usleep(20_000) }
        return !isRunning
    }
}
