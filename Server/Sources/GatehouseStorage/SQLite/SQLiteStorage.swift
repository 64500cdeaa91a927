import Foundation
import GatehouseServerSupport
public import Logging
import NIOCore

/// ``AuthStorage`` on one SQLite connection, in WAL mode with `synchronous=FULL` so that a
/// committed logout or rotation survives a power loss.
///
/// All access goes through one FIFO lock, so a transaction's statements never interleave with
/// another request's; SQLite serialises writers anyway. Transactions that queue up meanwhile
/// share one commit (``SQLiteGroupCommit``): one fsync for many. Reads that need no
/// transaction (the session check of every authenticated request) go to query-only reader
/// connections instead (``SQLiteReaderPool``), so they never queue behind a write batch. The
/// log is copied into the database file by a service of its own (``SQLiteCheckpointer``), not
/// inside a commit.
public final class SQLiteStorage: AuthStorage {
    private let connection: SQLiteHandle
    private let lock: AsyncLock
    private let groupCommit: SQLiteGroupCommit
    /// `nil` for an in-memory database, which other connections cannot see.
    private let readers: SQLiteReaderPool?
    /// The service that checkpoints the log off the commit path; `nil` for an in-memory
    /// database, which has no log. Run it beside the server (``ServerDatabase/services``).
    package let checkpointer: SQLiteCheckpointer?

    /// Opens (creating if needed) the database and sets its pragmas.
    public static func open(_ database: DatabaseLocation, logger: Logger) async throws -> SQLiteStorage {
        try await open(database, checkpoints: .standard, logger: logger)
    }

    /// Opens the database with the checkpoint service's limits given (tests use small ones).
    package static func open(
        _ database: DatabaseLocation,
        checkpoints limits: SQLiteCheckpointer.Limits,
        logger: Logger
    ) async throws -> SQLiteStorage {
        let path: String
        switch database {
        case .sqliteMemory: path = ":memory:"
        case .sqliteFile(let file):
            path = file
            try SQLiteFiles.prepare(path: file)
        case .postgres:
            throw ConfigurationError(variable: "GATEHOUSE_DATABASE_URL", problem: "is not a SQLite database")
        }
        let connection = try SQLiteHandle(path: path)
        do {
            for pragma in writerPragmas {
                try connection.execute(pragma)
            }
            guard case .sqliteFile = database else {
                return SQLiteStorage(connection: connection, readers: nil, checkpointer: nil)
            }
            let checkpointer = try SQLiteCheckpointer(path: path, limits: limits, logger: logger)
            connection.reportCommits(to: checkpointer)
            do {
                let readers = try SQLiteReaderPool.open(path: path, count: readerCount)
                return SQLiteStorage(connection: connection, readers: readers, checkpointer: checkpointer)
            } catch {
                checkpointer.close()
                throw error
            }
        } catch {
            connection.close()
            throw error
        }
    }

    /// The writing connection's settings: the write-ahead log, a commit durable when it returns,
    /// foreign keys enforced, deleted content overwritten, and the page cache below.
    package static let writerPragmas = [
        "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
        "PRAGMA busy_timeout=5000", "PRAGMA secure_delete=ON", pageCachePragma,
    ]

    /// Each connection's page cache: up to 128 MiB (SQLite's default is 2 MiB). At a million
    /// users (4 GiB with ten million session rows) the indexes a request walks no longer fit in
    /// 2 MiB, and every page missed is read again from the file: the rows that touch the
    /// database ran at 0.56–0.83 of the empty database's rate, against 0.84–1.13 with this
    /// cache (issue 35, one run each). The cache holds only pages read, so a small database
    /// never grows it past its own size; an idle server starts 0.3–0.5 MiB larger with it.
    package static let pageCachePragma = "PRAGMA cache_size=-131072"

    /// Reader connections: one per core, at least two.
    package static let readerCount = max(2, System.coreCount)

    private init(connection: SQLiteHandle, readers: SQLiteReaderPool?, checkpointer: SQLiteCheckpointer?) {
        self.connection = connection
        self.readers = readers
        self.checkpointer = checkpointer
        let lock = AsyncLock()
        self.lock = lock
        groupCommit = SQLiteGroupCommit(connection: connection, lock: lock)
    }

    /// Reads a pragma's value (tests assert WAL and FULL).
    public func pragma(_ name: String) async throws -> String? {
        try await lock.withLock {
            switch try connection.rows("PRAGMA \(name)").first?.values.first {
            case .text(let text): text
            case .integer(let number): String(number)
            case .float(let number): String(number)
            case .null, nil: nil
            }
        }
    }

    public func migrate() async throws {
        try await lock.withLock {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)"
            )
            let applied = Set(
                try connection.rows("SELECT name FROM schema_migrations").compactMap {
                    $0.column("name")?.string
                }
            )
            for migration in Migrations.all where !applied.contains(migration.name) {
                try connection.execute("BEGIN IMMEDIATE")
                do {
                    for statement in Migrations.statements(of: migration, for: .sqlite) {
                        try connection.execute(statement)
                    }
                    _ = try connection.rows(
                        "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                        [.text(migration.name), .float(Date().timeIntervalSince1970)]
                    )
                    try connection.execute("COMMIT")
                } catch {
                    try? connection.execute("ROLLBACK")
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
        let start = ContinuousClock.now
        defer { StorageMetrics.transaction("sqlite", duration: start.duration(to: .now), failed: box.get() == nil) }
        do {
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
        } catch {
            // The disk full, the file read-only or failing: the batch rolled back; the next
            // transaction tries again.
            throw DatabaseUnavailable.classify(error) ?? error
        }
        guard let result = box.get() else { throw StorageError.noResult }
        return result
    }

    public func read<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageReader) async throws -> Result
    )
        async throws -> Result
    {
        guard let readers else { return try await transaction { try await body($0) } }
        do {
            return try await readers.withConnection { connection in
                try await body(SQLTransaction(executor: SQLiteExecutor(handle: connection)))
            }
        } catch {
            throw DatabaseUnavailable.classify(error) ?? error
        }
    }

    public func checkpoint() async throws {
        try await lock.withLock { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    public func close() async throws {
        readers?.close()
        await lock.withLock { connection.close() }
        checkpointer?.close()
    }
}
