import Foundation
public import Logging
import NIOSSL
import PostgresNIO

/// ``AuthStorage`` on PostgreSQL through a bounded connection pool, for several server
/// instances on one database. Statements are the shared ``SQLTransaction``; a refresh
/// rotation is one conditional `UPDATE`, whose row lock makes two instances agree.
public final class PostgresStorage: AuthStorage {
    /// An arbitrary constant naming the migration lock (`pg_advisory_xact_lock`).
    static let migrationLock = 0x6761_7465_686f_7573

    let client: PostgresClient
    private let logger: Logger
    private let runner: Task<Void, Never>
    /// This process's view of the batched rate-limit windows.
    private let hitTally = HitTally()

    /// Connects the pool (connections open on first use).
    public static func open(_ settings: PostgresSettings, logger: Logger) async throws -> PostgresStorage {
        let tls: PostgresClient.Configuration.TLS
        switch settings.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(.makeClientConfiguration())
        case .require: tls = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: settings.host,
            port: settings.port,
            username: settings.username,
            password: settings.password,
            database: settings.database,
            tls: tls
        )
        configuration.options.maximumConnections = settings.poolSize
        // Kept connections are never parked with a timer (PostgresSettings.keepsConnectionsOpen);
        // no keep-alive query either: a connection the database closes is replaced when the pool
        // sees it close, and a dead one fails its next statement instead of an idle ping.
        configuration.options.minimumConnections = settings.keepsConnectionsOpen ? settings.poolSize : 0
        configuration.options.keepAliveBehavior = nil
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let storage = PostgresStorage(client: client, logger: logger)
        // Fail at start, naming the database, rather than on the first request.
        do {
            try await client.query("SELECT 1", logger: logger)
        } catch {
            storage.runner.cancel()
            throw ConfigurationError(
                variable: "GATEHOUSE_DATABASE_URL",
                problem: "could not connect to PostgreSQL at \(settings.host):\(settings.port)/\(settings.database)"
            )
        }
        return storage
    }

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    /// Applies missing migrations in one transaction under an advisory lock, so instances
    /// starting together apply each migration once.
    public func migrate() async throws {
        let logger = logger
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)
                """,
                logger: logger
            )
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for migration in Migrations.all where !applied.contains(migration.name) {
                for statement in Migrations.statements(of: migration, for: .postgres) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let now = Date().timeIntervalSince1970
                try await connection.query(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (\(migration.name), \(now))",
                    logger: logger
                )
            }
        }
    }

    public func read<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageReader) async throws -> Result
    )
        async throws -> Result
    {
        let logger = logger
        return try await client.withConnection { connection in
            try await body(SQLTransaction(executor: PostgresExecutor(connection: connection, logger: logger)))
        }
    }

    public func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result
    {
        let logger = logger
        do {
            return try await measured {
                try await client.withTransaction(logger: logger) { connection in
                    try await body(
                        SQLTransaction(
                            executor: PostgresExecutor(connection: connection, logger: logger),
                            locksUserRows: true
                        )
                    )
                }
            }
        } catch let error as PostgresTransactionError {
            // The caller's own error (an APIError, say) matters, not the wrapper.
            if let closureError = error.closureError { throw closureError }
            throw error
        }
    }

    public func autocommit<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result
    {
        let logger = logger
        return try await measured {
            try await client.withConnection { connection in
                try await body(SQLTransaction(executor: PostgresExecutor(connection: connection, logger: logger)))
            }
        }
    }

    /// Runs `body` and records its duration and outcome as a transaction in the metrics.
    private func measured<Result>(_ body: () async throws -> Result) async throws -> Result {
        let start = ContinuousClock.now
        var failed = true
        defer { AuthMetrics.transaction("postgres", duration: start.duration(to: .now), failed: failed) }
        let result = try await body()
        failed = false
        return result
    }

    /// Rate limits kept in this database, shared by every instance; the busiest buckets' hits
    /// are written in batches (``BatchedRateLimiter``).
    var rateLimiter: BatchedRateLimiter {
        BatchedRateLimiter(
            base: PostgresRateLimiter(client: client, logger: logger),
            batched: BatchedRateLimiter.defaultBuckets,
            tally: hitTally,
            interval: .milliseconds(20),
            logger: logger
        )
    }

    public func checkpoint() async throws {}

    /// Writes the rate-limit hits still counted only here, then closes the pool. A write that
    /// cannot finish within two seconds (the database gone) is failed by the pool's closing.
    public func close() async throws {
        let limiter = rateLimiter
        let runner = runner
        let deadline = Task {
            try? await Task.sleep(for: .seconds(2))
            runner.cancel()
        }
        await limiter.settle(timeout: .seconds(2))
        deadline.cancel()
        runner.cancel()
        await runner.value
    }
}
