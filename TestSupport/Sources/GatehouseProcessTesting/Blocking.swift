import Foundation

/// Runs blocking calls (pipe reads, process waits) on a thread of their own, never on Swift's
/// cooperative pool (on 2 cores, two blocked pool threads would starve the server under test)
/// and never on Dispatch's global queue: on Linux that queue has few threads, and they also
/// fire the timers of `Task.sleep`, so a handful of pipe reads parked there (a browser test's,
/// an import's) made every sleep in the suite wake tens of seconds late.
public enum Blocking {
    /// Runs `body` on a new thread and returns its result. `body` must end by itself (a pipe
    /// read ends when the child exits; a child's wait is bounded): nothing here cancels it.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
