import Foundation
import GatehouseServer
import GatehouseStorage
import Logging
import PostgresNIO

/// A database the server is benchmarked on, with its durable-transaction bound.
struct BenchDatabase {
    var name: String
    /// `GATEHOUSE_DATABASE_URL` for the server.
    var url: String
    var transactionBound: Double
    var client: PostgresClient?
    var runner: Task<Void, Never>?
    /// PostgreSQL's postmaster, whose processes' CPU the rows report.
    var postmaster: Int32?
    /// The refresh's bound (pgbench on its statements), when pgbench is installed.
    var pgbench: PgbenchBound?

    /// A fresh `gatehouse_bench` database on the server `adminURL` names, and its bound.
    static func postgres(adminURL: String, logger: Logger) async throws -> BenchDatabase {
        let admin = try PostgresSettings(url: adminURL)
        let adminClient = PostgresClient(configuration: configuration(admin), backgroundLogger: logger)
        let adminRunner = Task { await adminClient.run() }
        // `FORCE` ends the sessions of a server a crashed run left behind, which would otherwise
        // keep the database in use and fail every later run.
        try await adminClient.query("DROP DATABASE IF EXISTS gatehouse_bench WITH (FORCE)", logger: logger)
        try await adminClient.query("CREATE DATABASE gatehouse_bench", logger: logger)
        adminRunner.cancel()
        await adminRunner.value
        var bench = admin
        bench.database = "gatehouse_bench"
        bench.poolSize = 16
        let client = PostgresClient(configuration: configuration(bench), backgroundLogger: logger)
        let runner = Task { await client.run() }
        let bound = try await Bounds.postgresTransactionsPerSecond(client: client)
        try await client.query("DROP TABLE bound_counters", logger: logger)
        let url =
            "postgres://\(bench.username)\(bench.password.map { ":" + $0 } ?? "")@\(bench.host):\(bench.port)/gatehouse_bench?sslmode=disable"
        var database = BenchDatabase(
            name: "PostgreSQL",
            url: url,
            transactionBound: bound,
            client: client,
            runner: runner
        )
        database.postmaster = try await PgbenchBound.postmaster(of: client, logger: logger)
        if let binary = PgbenchBound.findBinary(), let postmaster = database.postmaster {
            database.pgbench = PgbenchBound(
                binary: binary,
                url: url,
                postmaster: postmaster,
                client: client,
                directory: FileManager.default.temporaryDirectory,
                logger: logger
            )
        }
        return database
    }

    /// A client of the database `settings` name, without TLS, with a pool of at least 16.
    static func configuration(_ settings: PostgresSettings) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: settings.host,
            port: settings.port,
            username: settings.username,
            password: settings.password,
            database: settings.database,
            tls: .disable
        )
        configuration.options.maximumConnections = max(settings.poolSize, 16)
        return configuration
    }
}

extension [BenchDatabase] {
    /// Stops the pools and waits for them to close their connections: a process that exits while
    /// a pool still shuts down on NIO's threads can crash on the way out.
    func asyncClose() async {
        for database in self { database.runner?.cancel() }
        for database in self { await database.runner?.value }
    }
}
