import Foundation
package import GatehouseServerSupport
public import Logging
import NIOSSL
package import PostgresNIO

/// ``AuthStorage`` on PostgreSQL through a bounded connection pool, for several server
/// instances on one database. Statements are the shared ``SQLTransaction``; a refresh
/// rotation is one conditional `UPDATE`, whose row lock makes two instances agree.
public final class PostgresStorage: AuthStorage {
    /// An arbitrary constant naming the migration lock (`pg_advisory_xact_lock`).
    package static let migrationLock = 0x6761_7465_686f_7573

    /// The pool: a swift-service-lifecycle `Service`. The server runs it in its `ServiceGroup`
    /// (``runServer(configuration:logger:)``), shut down after every service that uses it.
    package let client: PostgresClient
    package let logger: Logger
    /// The logger a request's statements run with. PostgresNIO logs a statement only at `debug`
    /// and `trace`, and sets metadata on the logger for every one; above `debug` the statements
    /// get a logger that keeps nothing, so that work is not done for lines never written
    /// (issue 35: 7 % of the server's CPU in a PostgreSQL refresh).
    private let statementLogger: Logger
    package let settings: PostgresSettings
    /// The client's run when this storage runs it itself (``open(_:logger:)``: the `keys` and
    /// `admin-token` commands, tests, an embedding application); `nil` when a service group does.
    private let runner: Task<Void, Never>?
    /// This process's view of the batched rate-limit windows.
    private let hitTally = HitTally()
    /// Wakes the rate-limit flush (``RateLimitFlush``) when hits wait to be written.
    package let flushWakeup = Wakeup()

    /// Opens the pool and runs it until ``close()``, after checking that the database answers.
    public static func open(_ settings: PostgresSettings, logger: Logger) async throws -> PostgresStorage {
        let storage = PostgresStorage(settings: settings, logger: logger, runsClient: true)
        do {
            try await storage.checkConnection()
        } catch {
            storage.runner?.cancel()
            throw error
        }
        return storage
    }

    /// The storage with its pool not yet running: the caller runs ``client`` in its service
    /// group, then calls ``checkConnection()`` and migrates.
    package static func prepare(_ settings: PostgresSettings, logger: Logger) -> PostgresStorage {
        PostgresStorage(settings: settings, logger: logger, runsClient: false)
    }

    private init(settings: PostgresSettings, logger: Logger, runsClient: Bool) {
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
        configuration.options.connectionIdleTimeout = settings.idleTimeout
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        statementLogger =
            logger.logLevel > .debug ? Logger(label: logger.label) { _ in SwiftLogNoOpLogHandler() } : logger
        self.settings = settings
        runner = runsClient ? Task { await client.run() } : nil
    }

    /// Fails, naming the database, when it does not answer within the connection wait: at
    /// start rather than on the first request.
    package func checkConnection() async throws {
        let logger = logger
        do {
            try await leased { wait in
                try await self.client.withConnection { connection in
                    try wait.leased { let _: EventLoopFuture<Void> = connection.close() }
                    try await connection.query("SELECT 1", logger: logger)
                }
            }
        } catch {
            throw ConfigurationError(
                variable: "GATEHOUSE_DATABASE_URL",
                problem: "could not connect to PostgreSQL at \(settings.host):\(settings.port)/\(settings.database)"
            )
        }
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
        try await onLeasedConnection { _, statements in try await body(statements) }
    }

    public func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result
    {
        let logger = statementLogger
        return try await measured {
            try await onLeasedConnection(locksUserRows: true) { connection, statements in
                do {
                    return try await connection.withTransaction(logger: logger) { _ in
                        try await body(statements)
                    }
                } catch let error as PostgresTransactionError {
                    // The caller's own error (an APIError, say) matters, not the wrapper.
                    if let closureError = error.closureError { throw closureError }
                    throw error
                }
            }
        }
    }

    public func autocommit<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result
    {
        try await measured { try await onLeasedConnection { _, statements in try await body(statements) } }
    }

    /// Both on one leased connection, without `BEGIN` and `COMMIT`: one lease from the pool
    /// and one wait for it, where a read and then an autocommit would take two (issue 35: a
    /// refresh's read of its session, then its rotation).
    public func read<Value: Sendable, Result: Sendable>(
        _ read: @escaping @Sendable (_ reader: any StorageReader) async throws -> Value,
        thenAutocommit write:
            @escaping @Sendable (_ value: Value) -> (
                @Sendable (_ tx: any StorageTransaction) async throws -> Result
            )?
    ) async throws -> (read: Value, written: Result?) {
        try await measured {
            try await onLeasedConnection { _, statements in
                let value = try await read(statements)
                guard let body = write(value) else { return (value, nil) }
                return (value, try await body(statements))
            }
        }
    }

    /// Leases a connection (``leased(_:)``: the wait for it is bounded) and runs `body` with it
    /// and its statements on the connection's event loop (``PostgresConnection/onItsEventLoop(_:)``).
    private func onLeasedConnection<Result: Sendable>(
        locksUserRows: Bool = false,
        _ body: @escaping @Sendable (PostgresConnection, SQLTransaction) async throws -> Result
    ) async throws -> Result {
        let (client, logger) = (client, statementLogger)
        return try await leased { wait in
            try await client.withConnection { connection in
                try wait.leased { let _: EventLoopFuture<Void> = connection.close() }
                return try await connection.onItsEventLoop {
                    try await body(
                        connection,
                        SQLTransaction(
                            executor: PostgresExecutor(connection: connection, logger: logger),
                            locksUserRows: locksUserRows
                        )
                    )
                }
            }
        }
    }

    /// Runs `body` (which leases a connection and calls ``ConnectionWait/leased()`` first thing
    /// with it) for at most ``PostgresSettings/connectionWait`` of waiting for the connection,
    /// and turns a database that cannot serve into ``DatabaseUnavailable``.
    package func leased<Result: Sendable>(
        _ body: @escaping @Sendable (ConnectionWait) async throws -> Result
    ) async throws -> Result {
        do {
            return try await ConnectionWait.run(for: settings.connectionWait, total: settings.transactionTimeout, body)
        } catch {
            throw DatabaseUnavailable.classify(error) ?? error
        }
    }

    /// Runs `body` and records its duration and outcome as a transaction in the metrics.
    private func measured<Result>(_ body: () async throws -> Result) async throws -> Result {
        let start = ContinuousClock.now
        var failed = true
        defer { StorageMetrics.transaction("postgres", duration: start.duration(to: .now), failed: failed) }
        let result = try await body()
        failed = false
        return result
    }

    /// Rate limits kept in this database, shared by every instance; the busiest buckets' hits
    /// are written in batches (``BatchedRateLimiter``) by ``rateLimitFlush``.
    package var rateLimiter: BatchedRateLimiter {
        BatchedRateLimiter(
            base: PostgresRateLimiter(storage: self),
            batched: BatchedRateLimiter.defaultBuckets,
            tally: hitTally,
            wakeup: flushWakeup,
            logger: logger
        )
    }

    /// The service that writes the batched rate-limit hits (``RateLimitFlush``).
    package var rateLimitFlush: RateLimitFlush {
        RateLimitFlush(limiter: rateLimiter, interval: .milliseconds(20))
    }

    public func checkpoint() async throws {}

    /// Writes the rate-limit hits still counted only here (the flush's own settling at the
    /// application's shutdown leaves none), then stops the pool this storage runs itself. A
    /// write that cannot finish within two seconds (the database gone) is given up.
    public func close() async throws {
        await rateLimiter.settle(timeout: .seconds(2))
        guard let runner else { return }
        runner.cancel()
        await runner.value
    }
}
