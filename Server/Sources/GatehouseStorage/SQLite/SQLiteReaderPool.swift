import Synchronization

/// Query-only connections to a WAL database, for ``SQLiteStorage/read(_:)``. WAL lets readers
/// work beside the one writer: a read sees the last commit and never waits for a write batch.
/// Each connection runs one read at a time; a read that finds none idle waits for the next.
package final class SQLiteReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteHandle]
        var waiters: [CheckedContinuation<SQLiteHandle, Never>] = []
    }

    private let connections: [SQLiteHandle]
    private let state: Mutex<State>

    /// Opens `count` query-only connections to the database file at `path`.
    package static func open(path: String, count: Int) throws -> SQLiteReaderPool {
        var connections: [SQLiteHandle] = []
        do {
            for _ in 0..<count {
                let connection = try SQLiteHandle(path: path)
                connections.append(connection)
                try connection.execute("PRAGMA query_only=ON")
                try connection.execute("PRAGMA busy_timeout=5000")
                try connection.execute(SQLiteStorage.pageCachePragma)
            }
        } catch {
            for connection in connections { connection.close() }
            throw error
        }
        return SQLiteReaderPool(connections: connections)
    }

    private init(connections: [SQLiteHandle]) {
        self.connections = connections
        state = Mutex(State(idle: connections))
    }

    /// Runs `body` on an idle reader connection.
    package func withConnection<Result: Sendable>(
        _ body: (SQLiteHandle) async throws -> Result
    ) async throws -> Result {
        let connection = await lease()
        defer { release(connection) }
        return try await body(connection)
    }

    /// Closes every reader; call once no read is running.
    package func close() {
        for connection in connections { connection.close() }
    }

    private func lease() async -> SQLiteHandle {
        if let connection = state.withLock({ $0.idle.popLast() }) { return connection }
        return await withCheckedContinuation { continuation in
            let connection = state.withLock { state -> SQLiteHandle? in
                if let connection = state.idle.popLast() { return connection }
                state.waiters.append(continuation)
                return nil
            }
            if let connection { continuation.resume(returning: connection) }
        }
    }

    private func release(_ connection: SQLiteHandle) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteHandle, Never>? in
            guard !state.waiters.isEmpty else {
                state.idle.append(connection)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: connection)
    }
}
