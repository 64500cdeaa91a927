import Foundation
public import Logging

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

    /// Opens the configured database and applies missing migrations.
    ///
    /// - Parameters:
    ///   - configuration: Settings; only `database` and `serverSecret` matter here.
    ///   - logger: The storage's logger.
    /// - Throws: ``ConfigurationError`` naming `GATEHOUSE_DATABASE_URL` when the database cannot be opened.
    public static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> ServerDatabase {
        let storage: any AuthStorage
        let rateLimiter: any RateLimiter
        switch configuration.database {
        case .postgres(let settings):
            let postgres = try await PostgresStorage.open(settings, logger: logger)
            storage = postgres
            rateLimiter = postgres.rateLimiter
        case .sqliteFile, .sqliteMemory:
            storage = try await SQLiteStorage.open(configuration.database, logger: logger)
            rateLimiter = MemoryRateLimiter()
        }
        do {
            try await storage.migrate()
        } catch {
            try? await storage.close()
            throw error
        }
        return ServerDatabase(
            storage: storage,
            rateLimiter: NetworkKeyedRateLimiter(base: rateLimiter),
            configuration: configuration
        )
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
