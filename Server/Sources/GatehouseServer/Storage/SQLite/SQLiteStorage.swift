import Foundation
public import Logging
import SQLiteNIO

/// ``AuthStorage`` on one SQLite connection, in WAL mode with `synchronous=FULL` so that a
/// committed logout or rotation survives a power loss.
///
/// All access goes through one FIFO lock, so a transaction's statements never interleave with
/// another request's; SQLite serialises writers anyway. Transactions that queue up meanwhile
/// share one commit (``SQLiteGroupCommit``): one fsync for many.
public final class SQLiteStorage: AuthStorage {
    let connection: SQLiteConnection
    private let lock: AsyncLock
    private let groupCommit: SQLiteGroupCommit

    /// Opens (creating if needed) the database and sets its pragmas.
    public static func open(_ database: ServerConfiguration.Database, logger: Logger) async throws -> SQLiteStorage {
        let storage: SQLiteConnection.Storage
        switch database {
        case .sqliteMemory: storage = .memory
        case .sqliteFile(let path): storage = .file(path: path)
        case .postgres:
            throw ConfigurationError(variable: "GATEHOUSE_DATABASE_URL", problem: "is not a SQLite database")
        }
        let connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        let store = SQLiteStorage(connection: connection)
        try await store.execute("PRAGMA journal_mode=WAL")
        try await store.execute("PRAGMA synchronous=FULL")
        try await store.execute("PRAGMA foreign_keys=ON")
        try await store.execute("PRAGMA busy_timeout=5000")
        return store
    }

    private init(connection: SQLiteConnection) {
        self.connection = connection
        let lock = AsyncLock()
        self.lock = lock
        groupCommit = SQLiteGroupCommit(connection: connection, lock: lock)
    }

    /// Reads a pragma's value (tests assert WAL and FULL).
    public func pragma(_ name: String) async throws -> String? {
        try await lock.withLock {
            try await connection.query("PRAGMA \(name)").first?.columns.first?.data.string
        }
    }

    public func migrate() async throws {
        try await lock.withLock {
            _ = try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)"
            )
            let applied = Set(
                try await connection.query("SELECT name FROM schema_migrations").compactMap {
                    $0.column("name")?.string
                }
            )
            for migration in Migrations.all where !applied.contains(migration.name) {
                _ = try await connection.query("BEGIN IMMEDIATE")
                do {
                    for statement in Migrations.statements(of: migration, for: .sqlite) {
                        _ = try await connection.query(statement)
                    }
                    _ = try await connection.query(
                        "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                        [.text(migration.name), .float(Date().timeIntervalSince1970)]
                    )
                    _ = try await connection.query("COMMIT")
                } catch {
                    _ = try? await connection.query("ROLLBACK")
                    throw error
                }
            }
        }
    }

    public func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result
    {
        let box = ResultBox<Result>()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            groupCommit.submit(
                SQLiteGroupCommit.Job(
                    run: { transaction in box.set(try await body(transaction)) },
                    finish: { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    }
                )
            )
        }
        guard let result = box.get() else { throw StorageError.noResult }
        return result
    }

    public func close() async throws {
        try await lock.withLock { try await connection.close() }
    }

    private func execute(_ sql: String) async throws {
        _ = try await lock.withLock { try await connection.query(sql) }
    }
}
