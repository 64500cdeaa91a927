import Foundation

/// Runs blocking calls (pipe reads, process waits) on a Dispatch thread, never on Swift's
/// cooperative pool: on 2 cores, two blocked pool threads would starve the server under test.
enum Blocking {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }

    static func waitUntilExit(_ process: ChildProcess) async {
        await run { process.waitUntilExit() }
    }
}
