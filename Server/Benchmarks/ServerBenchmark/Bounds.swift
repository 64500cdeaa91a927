import Crypto
import Foundation
import HummingbirdBcrypt
import Logging
import NIOPosix
import PostgresNIO
import VaporCSQLite

/// The primitives that bound the server, measured on this machine in the same run.
enum Bounds {
    static let cores = System.coreCount

    /// bcrypt (cost 10, as the server) verifications per second on every core.
    static func bcryptPerSecond(duration: Duration = .seconds(3)) -> Double {
        let hash = Bcrypt.hash(Workloads.password, cost: 10)
        return perSecond(threads: cores, duration: duration) { _ = Bcrypt.verify(Workloads.password, hash: hash) }
    }

    /// ES256 signature verifications per second on every core (the check `GET /user` needs),
    /// over a message the size of an access token.
    static func es256VerificationsPerSecond(duration: Duration = .seconds(2)) throws -> Double {
        let key = P256.Signing.PrivateKey()
        let message = Data(String(repeating: "x", count: 700).utf8)
        let signature = try key.signature(for: message)
        let publicKey = key.publicKey
        return perSecond(threads: cores, duration: duration) {
            precondition(publicKey.isValidSignature(signature, for: message))
        }
    }

    /// Durable single-row transactions per second on SQLite with the server's pragmas (WAL,
    /// `synchronous=FULL`), on one connection as the server writes: `BEGIN IMMEDIATE`, one
    /// prepared `UPDATE`, `COMMIT`, through SQLite's C API on one thread (no driver in between).
    static func sqliteTransactionsPerSecond(directory: URL, duration: Duration = .seconds(3)) throws -> Double {
        let path = directory.appendingPathComponent("bound.sqlite").path
        var database: OpaquePointer?
        guard sqlite_nio_sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
        else { throw LoadError.unexpected("cannot open \(path)") }
        defer { sqlite_nio_sqlite3_close(database) }
        func execute(_ sql: String) throws {
            guard sqlite_nio_sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                throw LoadError.unexpected("\(sql): \(String(cString: sqlite_nio_sqlite3_errmsg(database)))")
            }
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
        try execute("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
        try execute("INSERT INTO counters (id, n) VALUES (1, 0)")
        var update: OpaquePointer?
        guard
            sqlite_nio_sqlite3_prepare_v2(database, "UPDATE counters SET n = n + 1 WHERE id = 1", -1, &update, nil)
                == SQLITE_OK
        else { throw LoadError.unexpected("cannot prepare the update") }
        defer { sqlite_nio_sqlite3_finalize(update) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        var count = 0
        while clock.now < deadline {
            try execute("BEGIN IMMEDIATE")
            guard sqlite_nio_sqlite3_step(update) == SQLITE_DONE else { throw LoadError.unexpected("update failed") }
            sqlite_nio_sqlite3_reset(update)
            try execute("COMMIT")
            count += 1
        }
        return Double(count) / seconds(duration)
    }

    /// Durable single-row transactions per second on PostgreSQL (autocommit `UPDATE`s of
    /// distinct rows from `connections` connections, so commits can share a flush).
    static func postgresTransactionsPerSecond(
        client: PostgresClient,
        connections: Int = 16,
        duration: Duration = .seconds(3)
    ) async throws -> Double {
        let logger = Logger(label: "bound")
        try await client.query("DROP TABLE IF EXISTS bound_counters", logger: logger)
        try await client.query(
            "CREATE TABLE bound_counters (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)",
            logger: logger
        )
        try await client.query(
            "INSERT INTO bound_counters SELECT g, 0 FROM generate_series(1, \(connections)) g",
            logger: logger
        )
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 1...connections {
                group.addTask {
                    var count = 0
                    while clock.now < deadline {
                        try await client.query("UPDATE bound_counters SET n = n + 1 WHERE id = \(id)", logger: logger)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / seconds(duration)
    }

    /// Runs `work` on `threads` threads for `duration`; calls per second.
    private static func perSecond(threads: Int, duration: Duration, _ work: @escaping @Sendable () -> Void) -> Double {
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        nonisolated(unsafe) let shared = counts
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            var count = 0
            while clock.now < deadline {
                work()
                count += 1
            }
            shared[index] = count
        }
        return Double(counts.reduce(0, +)) / seconds(duration)
    }
}
