import Gatehouse

/// The value of `task`, or a failure once `limit` has passed: a wait with a deadline, so that a
/// broken implementation (a continuation never resumed) fails the test instead of hanging the
/// run. A task that misses the deadline is left behind, not awaited.
func value<T: Sendable>(of task: Task<T, any Error>, within limit: Duration = .seconds(30)) async throws -> T {
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
        let resumed = Locked(false)
        let finish: @Sendable (Result<T, any Error>) -> Void = { result in
            let first = resumed.withLock { done in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(returning: result) }
        }
        Task { finish(await task.result) }
        Task {
            try? await Task.sleep(for: limit)
            finish(.failure(DeadlineMissed(limit: limit)))
        }
    }
    return try outcome.get()
}

/// A wait that did not end within its deadline.
struct DeadlineMissed: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer within \(limit)" }
}
