import Foundation
import GatehouseServerSupport
public import GatehouseStorage
public import Logging
package import ServiceLifecycle

/// The one place that turns `GATEHOUSE_DATABASE_URL` into a database: its ``AuthStorage``
/// (SQLite or PostgreSQL), the rate-limit store that goes with it, and where its server
/// secret comes from.
///
/// | Database | Rate limits | Server secret |
/// |---|---|---|
/// | SQLite file | in memory (one server) | `GATEHOUSE_SERVER_SECRET`, else a 0600 file `<path>.secret` |
/// | SQLite in memory | in memory | `GATEHOUSE_SERVER_SECRET`, else random per process |
/// | PostgreSQL | in the database, shared by every instance | `GATEHOUSE_SERVER_SECRET`, required |
///
/// The server, `gatehouse-server keys …` and `gatehouse-server admin-token` all open their
/// database here, so each works on whichever database is configured.
///
/// ```swift
/// let database = try await ServerDatabase.open(configuration, logger: logger)
/// let keys = try await SigningKeyAdmin.list(storage: database.storage)
/// try await database.close()
/// ```
public struct ServerDatabase: Sendable {
    /// The storage, migrated.
    public let storage: any AuthStorage
    /// Fixed-window counters that every instance on this database shares.
    let rateLimiter: any RateLimiter
    private let configuration: ServerConfiguration

    /// Opens the configured database and applies missing migrations. A PostgreSQL pool runs
    /// until ``close()``.
    ///
    /// - Parameters:
    ///   - configuration: Settings; only `database` and `serverSecret` matter here.
    ///   - logger: The storage's logger.
    /// - Throws: ``ConfigurationError`` naming `GATEHOUSE_DATABASE_URL` when the database cannot be opened.
    public static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> ServerDatabase {
        let database = try await opened(configuration, logger: logger, runsPool: true)
        do {
            try await database.storage.migrate()
        } catch {
            try? await database.storage.close()
            throw error
        }
        return database
    }

    /// Opens the configured database without migrating it and, for PostgreSQL, without running
    /// its pool: ``pool`` is to be run in the caller's service group (``runServer(configuration:logger:)``),
    /// and ``start()`` then checks the connection and migrates.
    package static func prepare(_ configuration: ServerConfiguration, logger: Logger) async throws -> ServerDatabase {
        try await opened(configuration, logger: logger, runsPool: false)
    }

    private static func opened(
        _ configuration: ServerConfiguration,
        logger: Logger,
        runsPool: Bool
    ) async throws -> ServerDatabase {
        let storage: any AuthStorage
        let rateLimiter: any RateLimiter
        switch configuration.database {
        case .postgres(let settings):
            let postgres =
                runsPool
                ? try await PostgresStorage.open(settings, logger: logger)
                : PostgresStorage.prepare(settings, logger: logger)
            storage = postgres
            rateLimiter = postgres.rateLimiter
        case .sqliteFile, .sqliteMemory:
            storage = try await SQLiteStorage.open(configuration.database, logger: logger)
            rateLimiter = MemoryRateLimiter()
        }
        return ServerDatabase(
            storage: storage,
            rateLimiter: NetworkKeyedRateLimiter(base: rateLimiter),
            configuration: configuration
        )
    }

    /// PostgreSQL's connection pool, a `Service`, when the database is PostgreSQL.
    package var pool: (any Service)? {
        (storage as? PostgresStorage)?.client
    }

    /// The database's own background work, run by the application: PostgreSQL's rate-limit
    /// flush (``RateLimitFlush``), SQLite's checkpoints (``SQLiteCheckpointer``).
    package var services: [any Service] {
        if let postgres = storage as? PostgresStorage { return [postgres.rateLimitFlush] }
        if let checkpointer = (storage as? SQLiteStorage)?.checkpointer { return [checkpointer] }
        return []
    }

    /// Checks that a prepared database answers, then applies missing migrations.
    package func start() async throws {
        if let postgres = storage as? PostgresStorage { try await postgres.checkConnection() }
        try await storage.migrate()
    }

    /// The key of refresh-token and code HMACs for this database (see the table above).
    func serverSecret() throws -> ServerSecret {
        try Self.serverSecret(for: configuration)
    }

    /// The secret rule: configured text wins; PostgreSQL requires it (every instance needs the
    /// same); a SQLite file keeps one beside it; an in-memory database gets a random one.
    static func serverSecret(for configuration: ServerConfiguration) throws -> ServerSecret {
        if let text = configuration.serverSecret { return ServerSecret(text: text) }
        switch configuration.database {
        case .postgres:
            throw ConfigurationError(
                variable: "GATEHOUSE_SERVER_SECRET",
                problem: "must be set with PostgreSQL: every instance needs the same secret (at least 32 bytes)"
            )
        case .sqliteFile(let path):
            return try ServerSecret.file(at: path + ".secret")
        case .sqliteMemory:
            return ServerSecret.ephemeral()
        }
    }

    /// Closes the storage.
    public func close() async throws {
        try await storage.close()
    }
}
