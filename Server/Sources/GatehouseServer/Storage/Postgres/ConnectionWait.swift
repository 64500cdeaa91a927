import NIOCore
import NIOPosix
import Synchronization

/// Bounds the wait for a pooled PostgreSQL connection. PostgresNIO's pool keeps a request
/// waiting while it cannot open connections (the database down or restarting), until its
/// circuit breaker opens a minute later; a request must be answered 503 long before that.
///
/// The work runs in a task of its own, awaited at once, so that running out of time cancels
/// only the wait for the lease (the pool withdraws a cancelled request) and never the request's
/// own task, which still writes its answer. The deadline is an event-loop timer, which is
/// removed when the work ends: no `Task.sleep` is left behind per statement.
final class ConnectionWait: Sendable {
    private struct State {
        var leased = false
        var expired = false
    }

    private let state = Mutex(State())

    /// Whether the wait ran out before a connection came.
    var expired: Bool { state.withLock { $0.expired } }

    /// Called first thing with the leased connection; throws when the wait had already run out
    /// (the lease won a race with the timer: the request has been given up).
    func leased() throws {
        try state.withLock { state in
            guard !state.expired else { throw DatabaseUnavailable(reason: "no PostgreSQL connection in time") }
            state.leased = true
        }
    }

    /// Ends the wait unless a connection came first; returns whether it did end it.
    private func expire() -> Bool {
        state.withLock { state in
            guard !state.leased else { return false }
            state.expired = true
            return true
        }
    }

    /// Runs `body`, giving up its wait for a connection after `limit`.
    static func run<Result: Sendable>(
        for limit: Duration,
        _ body: @escaping @Sendable (ConnectionWait) async throws -> Result
    ) async throws -> Result {
        let wait = ConnectionWait()
        // Structured in effect: awaited at once below, and cancelled with its caller.
        let work = Task { try await body(wait) }
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(limit)) {
            if wait.expire() { work.cancel() }
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            guard wait.expired else { throw error }
            throw DatabaseUnavailable(reason: "no PostgreSQL connection within \(limit)")
        }
    }
}
