import Foundation
import GatehouseStorage
import HTTPTypes
import HummingbirdBcrypt
import Logging
import PostgresNIO
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer
@testable import gatehouse_server_benchmark

/// The benchmark's seeder (`--seed-users`) writes past the server's own code, with the
/// database's checks off for speed (SQLite: foreign keys off and the indexes dropped during the
/// load; PostgreSQL: foreign-key triggers off), so nothing else would notice a seed that the
/// server cannot use. The figures at a million users stand on it: a seeded database must be
/// whole, keep the schema's indexes, and serve its users as any other.
@Suite("The benchmark's seeder")
struct SeederTests {
    /// 200 users, then 2,000 sessions among them, as `ScaleBench` seeds (users first, sessions
    /// after), on the suite's database: the rows are all there and consistent, the indexes
    /// are the migrations' own, and the server signs a seeded user in, refreshes and answers.
    @Test func aSeededDatabaseIsWholeAndTheServerServesItsUsers() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.server.storage.close()
        let hash = Bcrypt.hash(Workloads.password, cost: 4)
        let indexesBefore = try await Self.rows(harness.configuration.database, Self.indexesSQL)
        let database = harness.configuration.database
        try await Self.seed(database, users: 0..<200, sessions: 0, sessionUsers: 1, hash: hash)
        try await Self.seed(database, users: 0..<0, sessions: 2_000, sessionUsers: 200, hash: hash)

        #expect(try await Self.rows(database, "SELECT count(*) FROM users") == [["200"]])
        #expect(try await Self.rows(database, "SELECT count(*) FROM sessions") == [["2000"]])
        // A tenth of the users signed in with Apple and hold an `apple` identity.
        #expect(
            try await Self.rows(database, "SELECT count(*) FROM identities WHERE provider = 'apple'") == [["20"]]
        )
        // Loaded with the checks off: every session's and identity's user exists.
        #expect(
            try await Self.rows(
                database,
                "SELECT count(*) FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE u.id IS NULL"
            ) == [["0"]]
        )
        #expect(
            try await Self.rows(
                database,
                "SELECT count(*) FROM identities i LEFT JOIN users u ON u.id = i.user_id WHERE u.id IS NULL"
            ) == [["0"]]
        )
        #expect(try await Self.rows(database, Self.indexesSQL) == indexesBefore, "the migrations' indexes, rebuilt")

        var logger = Logger(label: "seeded")
        logger.logLevel = .critical
        let server = try await buildServer(configuration: harness.configuration, now: harness.clock.now, logger: logger)
        try await LiveServer.run(server.application) { raw in
            let client = Client(client: raw, mailer: CapturingMailer(), server: server)
            // User 3 has a password; user 0 is a guest and user 1 signed in with Apple: neither
            // has one.
            let signIn = try await client.post(
                "/token?grant_type=password",
                #"{"email":"\#(SeedLayout.email(3))","password":"\#(Workloads.password)"}"#
            )
            #expect(signIn.status == .ok)
            let refreshToken = try #require(signIn.string("refresh_token"))
            let refreshed = try await client.post(
                "/token?grant_type=refresh_token",
                #"{"refresh_token":"\#(refreshToken)"}"#
            )
            #expect(refreshed.status == .ok)
            let accessToken = try #require(refreshed.string("access_token"))
            let user = try await client.send(.get, "/user", bearer: accessToken)
            #expect(user.status == .ok)
            #expect(user.string("email") == SeedLayout.email(3))
            for index in [0, 1] {
                let refused = try await client.post(
                    "/token?grant_type=password",
                    #"{"email":"\#(SeedLayout.email(index))","password":"\#(Workloads.password)"}"#
                )
                #expect(refused.status == .badRequest)
            }
        }
        try await server.storage.close()
    }

    /// The schema's own indexes (not those of constraints), by table and definition.
    private static var indexesSQL: String {
        TestDatabase.isPostgres
            ? "SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2"
            : "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1, 2"
    }

    /// Seeds as `ScaleBench` does, through its own entry point, on the suite's database.
    private static func seed(
        _ database: ServerConfiguration.Database,
        users: Range<Int>,
        sessions: Int,
        sessionUsers: Int,
        hash: String
    ) async throws {
        let logger = Logger(label: "seeder")
        switch database {
        case .sqliteFile(let path):
            try await ScaleBench.seed(
                BenchDatabase(name: "SQLite", url: path, transactionBound: 0),
                ["GATEHOUSE_DATABASE_URL": path],
                users: users,
                sessions: sessions,
                sessionUsers: sessionUsers,
                hash: hash,
                logger: logger
            )
        case .postgres(let settings):
            try await withClient(settings) { client in
                try await ScaleBench.seed(
                    BenchDatabase(name: "PostgreSQL", url: "", transactionBound: 0, client: client),
                    [:],
                    users: users,
                    sessions: sessions,
                    sessionUsers: sessionUsers,
                    hash: hash,
                    logger: logger
                )
            }
        default:
            Issue.record("the suite's database is a SQLite file or PostgreSQL")
        }
    }

    /// The rows of `sql` as text.
    private static func rows(_ database: ServerConfiguration.Database, _ sql: String) async throws -> [[String]] {
        switch database {
        case .sqliteFile(let path):
            let connection = try SeedDatabase(path: path)
            defer { connection.close() }
            let statement = try connection.prepare(sql)
            defer { statement.finalize() }
            return try statement.rows([])
        case .postgres(let settings):
            return try await withClient(settings) { client in
                var rows: [[String]] = []
                for try await row in try await client.query(
                    PostgresQuery(unsafeSQL: sql),
                    logger: Logger(label: "seeder")
                ) {
                    rows.append(
                        try row.map { cell in
                            switch cell.dataType {
                            case .int8: "\(try cell.decode(Int64.self))"
                            default: try cell.decode(String.self)
                            }
                        }
                    )
                }
                return rows
            }
        default:
            return []
        }
    }

    private static func withClient<Value: Sendable>(
        _ settings: PostgresSettings,
        _ body: (PostgresClient) async throws -> Value
    ) async throws -> Value {
        let client = PostgresClient(
            configuration: BenchDatabase.configuration(settings),
            backgroundLogger: Logger(label: "seeder")
        )
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        return try await body(client)
    }
}
