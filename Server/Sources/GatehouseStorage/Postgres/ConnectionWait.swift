import NIOCore
import Synchronization

/// Bounds the wait for a pooled PostgreSQL connection. PostgresNIO's pool keeps a request
/// waiting while it cannot open connections (the database down or restarting), until its
/// circuit breaker opens a minute later; a request must be answered 503 long before that.
///
/// The work runs in a task of its own, awaited at once, so that running out of time cancels
/// only the wait for the lease (the pool withdraws a cancelled request) and never the request's
/// own task, which still writes its answer. The deadlines are kept by ``DeadlineWatch``, which
/// forgets them when the work ends: no `Task.sleep` and no timer of its own per statement.
package final class ConnectionWait: Sendable {
    private struct State {
        var leased = false
        var expired = false
        /// Closes the leased connection (given with ``leased(closing:)``).
        var close: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Whether the wait ran out before a connection came.
    package var expired: Bool { state.withLock { $0.expired } }

    /// Called first thing with the leased connection; throws when the wait had already run out
    /// (the lease won a race with the timer: the request has been given up).
    ///
    /// - Parameter close: closes the connection, should the transaction outlive its time.
    package func leased(closing close: @escaping @Sendable () -> Void = {}) throws {
        try state.withLock { state in
            guard !state.expired else { throw DatabaseUnavailable(reason: "no PostgreSQL connection in time") }
            state.leased = true
            state.close = close
        }
    }

    /// Gives the transaction up: a connection it is given later is refused, and the one it
    /// holds is closed.
    private func abandon() {
        state.withLock { state in
            state.expired = true
            return state.close
        }?()
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
    ///
    /// At the deadline the caller is answered at once, whether or not the pool has withdrawn
    /// the cancelled lease yet: PostgresNIO's pool can hold a cancelled request while it
    /// reconnects to a restarted database, and a request answered only when the pool lets go
    /// hung past every client's timeout (issue 32). The work then ends on its own: a connection
    /// it is given later is refused by ``leased()`` and goes back to the pool.
    ///
    /// With `total`, a transaction that has its connection and is not done when `total` has
    /// passed since the start is given up too: the caller is answered `DatabaseUnavailable` and
    /// the connection closed (which fails what it still runs, or ends a connection PostgreSQL
    /// has already closed under a statement that will never complete).
    package static func run<Result: Sendable>(
        for limit: Duration,
        total: Duration? = nil,
        watch: DeadlineWatch = .shared,
        _ body: @escaping @Sendable (ConnectionWait) async throws -> Result
    ) async throws -> Result {
        let wait = ConnectionWait()
        let outcome = Outcome<Result>()
        // Unstructured on purpose: the caller waits for `outcome`, which the work or the timer
        // settles, not for the work itself.
        let work = Task {
            do {
                outcome.settle(.success(try await body(wait)))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let start = NIODeadline.now()
        let timer = watch.add(at: start + TimeAmount(limit)) {
            guard wait.expire() else { return }
            work.cancel()
            outcome.settle(.failure(DatabaseUnavailable(reason: "no PostgreSQL connection within \(limit)")))
        }
        // The whole transaction's bound, from the start: whatever it waits for then (a statement
        // PostgreSQL never answers), the caller is answered and the connection closed.
        let overtime = total.map { total in
            watch.add(at: start + TimeAmount(total)) {
                guard !outcome.isSettled else { return }
                // The connection is closed before the caller hears: nothing of the transaction
                // runs on after its answer.
                wait.abandon()
                outcome.settle(.failure(DatabaseUnavailable(reason: "PostgreSQL did not answer within \(total)")))
                work.cancel()
            }
        }
        defer {
            watch.remove(timer)
            if let overtime { watch.remove(overtime) }
        }
        let result = await withTaskCancellationHandler {
            await outcome.value
        } onCancel: {
            work.cancel()
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let error as DatabaseUnavailable):
            throw error
        case .failure(let error):
            guard wait.expired else { throw error }
            throw DatabaseUnavailable(reason: "no PostgreSQL connection within \(limit)")
        }
    }

    /// A result settled once, by whichever comes first, and awaited by one caller.
    private final class Outcome<Value: Sendable>: Sendable {
        private enum State {
            case pending
            case waiting(CheckedContinuation<Swift.Result<Value, any Error>, Never>)
            case settled(Swift.Result<Value, any Error>)
        }

        private let state = Mutex<State>(.pending)

        /// Whether the result is settled.
        var isSettled: Bool {
            state.withLock { state in
                if case .settled = state { return true }
                return false
            }
        }

        /// Settles the result; later calls are ignored.
        func settle(_ result: Swift.Result<Value, any Error>) {
            let waiting: CheckedContinuation<Swift.Result<Value, any Error>, Never>? = state.withLock { state in
                switch state {
                case .pending:
                    state = .settled(result)
                    return nil
                case .waiting(let continuation):
                    state = .settled(result)
                    return continuation
                case .settled:
                    return nil
                }
            }
            waiting?.resume(returning: result)
        }

        /// The result, once settled.
        var value: Swift.Result<Value, any Error> {
            get async {
                await withCheckedContinuation { continuation in
                    let settled: Swift.Result<Value, any Error>? = state.withLock { state in
                        if case .settled(let result) = state { return result }
                        state = .waiting(continuation)
                        return nil
                    }
                    if let settled { continuation.resume(returning: settled) }
                }
            }
        }
    }
}
