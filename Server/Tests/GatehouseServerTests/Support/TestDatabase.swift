import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Logging
import NIOPosix
import PostgresNIO

@testable import GatehouseFlows
@testable import GatehouseServer

/// Which database the suite runs on. The whole server suite is one set of tests run twice by
/// `scripts/test`: on SQLite (the default) and on PostgreSQL when `GATEHOUSE_TEST_POSTGRES_URL`
/// names a server (`scripts/postgres start` makes a private one), or, when it is not set, the
/// file `GATEHOUSE_TEST_POSTGRES_URL_FILE` names holds one (how `scripts/test` gives it: the
/// environment stays the build's, and SwiftPM does not load every manifest again). Every
/// harness gets its own database: a SQLite file in its folder, or a PostgreSQL database named
/// after the folder, each a copy of a migrated template.
enum TestDatabase {
    static let postgresURL: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["GATEHOUSE_TEST_POSTGRES_URL"] { return url }
        guard let file = environment["GATEHOUSE_TEST_POSTGRES_URL_FILE"],
            let text = try? String(contentsOfFile: file, encoding: .utf8)
        else { return nil }
        let url = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return url.isEmpty ? nil : url
    }()

    static var isPostgres: Bool { postgresURL != nil }

    /// The database for a harness folder, created on first use; the same folder gives the same
    /// database, so a restart finds its data.
    static func database(for directory: URL) async throws -> ServerConfiguration.Database {
        guard let postgresURL else {
            let path = directory.appendingPathComponent("gatehouse.sqlite").path
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.copyItem(atPath: try await SQLiteTemplate.shared.path(), toPath: path)
            }
            return .sqliteFile(path)
        }
        let admin = try PostgresSettings(url: postgresURL)
        let name = "gh_" + directory.lastPathComponent.lowercased().filter { $0.isLetter || $0.isNumber }.suffix(40)
        let template = try await PostgresTemplate.shared.name(admin: admin)
        try await withConnection(admin) { connection in
            let rows = try await connection.query("SELECT 1 FROM pg_database WHERE datname = \(name)", logger: logger)
            var exists = false
            for try await _ in rows { exists = true }
            guard !exists else { return }
            // The template's own connections close a moment after its migration: a copy
            // started before then is refused ("being accessed by other users") and tried again.
            for attempt in 1...100 {
                do {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(template)"),
                        logger: logger
                    )
                    return
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55006" && attempt < 100 {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
        var settings = admin
        settings.database = name
        settings.poolSize = 8
        // Hundreds of harness databases live at once: open connections on demand.
        settings.keepsConnectionsOpen = false
        // The whole suite shares two cores: sixty racing transactions on one pool of eight may
        // wait for a connection far longer than a server would (10 s) on a machine of its own.
        settings.connectionWait = .seconds(60)
        settings.transactionTimeout = .seconds(120)
        return .postgres(settings)
    }

    /// The migrated database each harness database is copied from (`CREATE DATABASE …
    /// TEMPLATE`): a copy of its files instead of every migration's statements per test, which on
    /// two cores made up much of the PostgreSQL pass. Made once per test process, under a name
    /// that changes with the migrations; built under a name of its own and renamed when
    /// complete, so a run that stopped halfway leaves no half-migrated template behind.
    actor PostgresTemplate {
        static let shared = PostgresTemplate()
        private var made: Task<String, any Error>?

        func name(admin: PostgresSettings) async throws -> String {
            if let made { return try await made.value }
            let task = Task { try await Self.make(admin: admin) }
            made = task
            return try await task.value
        }

        private static func make(admin: PostgresSettings) async throws -> String {
            let last = Migrations.all.last?.name.filter { $0.isLetter || $0.isNumber } ?? ""
            let name = "gh_template_\(Migrations.all.count)_\(last)".lowercased()
            var exists = false
            try await withConnection(admin) { connection in
                let rows = try await connection.query(
                    "SELECT 1 FROM pg_database WHERE datname = \(name)",
                    logger: logger
                )
                for try await _ in rows { exists = true }
            }
            if exists { return name }
            let building = "gh_building_\(UUID().uuidString.lowercased().filter { $0.isLetter || $0.isNumber })"
            try await withConnection(admin) { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(building)"), logger: logger)
            }
            var settings = admin
            settings.database = building
            settings.poolSize = 1
            settings.keepsConnectionsOpen = false
            let storage = try await PostgresStorage.open(settings, logger: logger)
            try await storage.migrate()
            try await storage.close()
            try await withConnection(admin) { connection in
                // Another test process may have finished one first: keep theirs.
                do {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "ALTER DATABASE \(building) RENAME TO \(name)"),
                        logger: logger
                    )
                } catch {
                    _ = try? await connection.query(
                        PostgresQuery(unsafeSQL: "DROP DATABASE \(building)"),
                        logger: logger
                    )
                }
            }
            return name
        }
    }

    /// The migrated SQLite file each harness database starts as (a copy, 0600 like the
    /// server's own): the migrations' transactions, each with its fsync, cost a third of a second
    /// per test on two busy cores. Made once per test process.
    actor SQLiteTemplate {
        static let shared = SQLiteTemplate()
        private var made: Task<String, any Error>?

        func path() async throws -> String {
            if let made { return try await made.value }
            let task = Task {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "gatehouse-template-\(UUID().uuidString)"
                )
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let path = directory.appendingPathComponent("template.sqlite").path
                let storage = try await SQLiteStorage.open(.sqliteFile(path), logger: logger)
                try await storage.migrate()
                try await storage.checkpoint()
                try await storage.close()
                return path
            }
            made = task
            return try await task.value
        }
    }

    /// A server secret tied to the folder, so restarts on PostgreSQL share it.
    static func secret(for directory: URL) -> String? {
        isPostgres ? "test-secret-" + directory.lastPathComponent : nil
    }

    /// A path of its own for a SQLite file a test opens directly, in the temporary folder.
    static func scratchSQLitePath(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-\(name)-\(UUID().uuidString).sqlite").path
    }

    /// Removes a SQLite file and what is kept beside it: the log, its index and the secret.
    static func removeSQLiteFiles(at path: String) {
        for suffix in ["", "-wal", "-shm", ".secret"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The database as a `GATEHOUSE_DATABASE_URL` value, for server processes.
    static func url(of database: ServerConfiguration.Database) -> String {
        switch database {
        case .sqliteFile(let path):
            return path
        case .postgres(let settings):
            let password = settings.password.map { ":" + $0 } ?? ""
            return "postgres://\(settings.username)\(password)@\(settings.host):\(settings.port)/\(settings.database)"
                + "?sslmode=disable"
        case .sqliteMemory:
            return ":memory:"
        }
    }

    /// Every row of the database as text, to check what is (not) stored.
    static func contents(of database: ServerConfiguration.Database) async throws -> String {
        switch database {
        case .sqliteFile(let path):
            return try [path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
                .map { try String(decoding: Data(contentsOf: URL(fileURLWithPath: $0)), as: UTF8.self) }
                .joined()
        case .postgres(let settings):
            var text = ""
            try await withConnection(settings) { connection in
                for table in [
                    "users", "sessions", "one_time_codes", "identities", "signing_keys", "audit_log", "apple_tokens",
                    "apple_revocations",
                ] {
                    let rows = try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM \(table) t"),
                        logger: logger
                    )
                    for try await line in rows.decode(String.self) { text += line + "\n" }
                }
            }
            return text
        case .sqliteMemory:
            return ""
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "test-database")
        logger.logLevel = .critical
        return logger
    }()

    static func withConnection(
        _ settings: PostgresSettings,
        _ body: (PostgresConnection) async throws -> Void
    ) async throws {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(),
            configuration: .init(
                host: settings.host,
                port: settings.port,
                username: settings.username,
                password: settings.password,
                database: settings.database,
                tls: .disable
            ),
            id: 1,
            logger: logger
        )
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
