import Synchronization

/// Group commit for the single SQLite connection. Transactions that arrive while another batch
/// holds the connection wait, then run together: one `BEGIN IMMEDIATE` and one `COMMIT`, so one
/// fsync of the WAL makes the whole batch durable; a failing transaction rolls back alone (see
/// ``run(_:)``). No caller hears back before that commit, so durability
/// is the same as one transaction per commit; only the fsync is shared.
package final class SQLiteGroupCommit: Sendable {
    /// One logical transaction: `run` does its work; `finish` is told how it ended.
    package struct Job: Sendable {
        package let run: @Sendable (any StorageTransaction) async throws -> Void
        package let finish: @Sendable ((any Error)?) -> Void
    }

    package static let maximumBatch = 256

    private let connection: SQLiteHandle
    private let lock: AsyncLock
    private let state = Mutex<(pending: [Job], draining: Bool)>(([], false))

    package init(connection: SQLiteHandle, lock: AsyncLock) {
        self.connection = connection
        self.lock = lock
    }

    /// Queues a job; a drain task runs while jobs are pending.
    package func submit(_ job: Job) {
        let startDrain = state.withLock { state -> Bool in
            state.pending.append(job)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        // The drain runs the queued transactions, each awaited by its request (which answers
        // only once its job finished): no work here outlives the requests that wait for it.
        if startDrain { Task { await self.drain() } }
    }

    private func drain() async {
        while true {
            let batch = state.withLock { state -> [Job] in
                guard !state.pending.isEmpty else {
                    state.draining = false
                    return []
                }
                let batch = Array(state.pending.prefix(Self.maximumBatch))
                state.pending.removeFirst(batch.count)
                return batch
            }
            if batch.isEmpty { return }
            StorageMetrics.groupCommitBatch(batch.count)
            let outcomes = await lock.withLock { await self.run(batch) }
            for (job, outcome) in zip(batch, outcomes) { job.finish(outcome) }
        }
    }

    /// Runs a batch in one SQLite transaction; returns each job's error (nil: committed).
    ///
    /// Optimistic first: the jobs run back to back with no savepoints (most transactions
    /// succeed). If one throws, the whole batch rolls back and runs again with a savepoint per
    /// job, so the failing one is undone alone. Jobs only touch the database, and nobody hears a
    /// result before the commit, so running a job twice is invisible.
    private func run(_ batch: [Job]) async -> [(any Error)?] {
        if let outcomes = await attempt(batch, savepoints: false) { return outcomes }
        return await attempt(batch, savepoints: true) ?? batch.map { _ in StorageError.noResult }
    }

    /// One attempt at a batch; `nil` when a job failed without savepoints (retry with them).
    private func attempt(_ batch: [Job], savepoints: Bool) async -> [(any Error)?]? {
        let transaction = SQLTransaction(executor: SQLiteExecutor(handle: connection))
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            return batch.map { _ in error }
        }
        var outcomes: [(any Error)?] = []
        for job in batch {
            do {
                if savepoints { try connection.execute("SAVEPOINT job") }
                try await job.run(transaction)
                if savepoints { try connection.execute("RELEASE job") }
                outcomes.append(nil)
            } catch {
                // A full disk or an I/O error can make SQLite roll the whole transaction back
                // by itself: every job of the batch is then undone, and nothing more may run
                // outside the transaction (it would commit statement by statement).
                guard connection.isInTransaction else { return batch.map { _ in error } }
                guard savepoints || batch.count == 1 else {
                    try? connection.execute("ROLLBACK")
                    return nil
                }
                if savepoints {
                    try? connection.execute("ROLLBACK TO job")
                    try? connection.execute("RELEASE job")
                } else {
                    try? connection.execute("ROLLBACK")
                    return [error]
                }
                outcomes.append(error)
            }
        }
        do {
            try connection.execute("COMMIT")
            return outcomes
        } catch {
            try? connection.execute("ROLLBACK")
            return outcomes.map { $0 ?? error }
        }
    }
}

/// Carries a job's result from the batch back to its caller.
package final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let value = Mutex<Value?>(nil)

    package func set(_ new: Value) { value.withLock { $0 = new } }
    package func get() -> Value? { value.withLock { $0 } }
}
