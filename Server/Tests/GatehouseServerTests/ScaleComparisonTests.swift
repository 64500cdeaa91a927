import Foundation
import GatehouseStorage
import Logging
import PostgresNIO
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer
@testable import gatehouse_server_benchmark

/// The million-user comparison (`--seed-users`, issue 35) prints, beside the CPU of the server
/// and its database together, each part's ratio alone and PostgreSQL's log per request: what
/// separates the server's cost from the durable write's own on a bigger database.
@Suite("The benchmark's million-user comparison")
struct ScaleComparisonTests {
    @Test func theServersAndTheDatabasesPartsAndTheLogPerRequestArePrintedApart() throws {
        var report = Report(cores: 2, duration: .seconds(4))
        let signUps = (
            empty: Self.row(requests: 1_000, server: 0.5, postgres: 0.25, wal: 2_000_000),
            seeded: Self.row(requests: 500, server: 0.25, postgres: 0.175, wal: 10_000_000)
        )
        report.addComparison(
            database: "PostgreSQL",
            workload: "anonymous sign-up",
            concurrency: 16,
            empty: signUps.empty,
            seeded: signUps.seeded
        )
        // No database work a request: its part is left out rather than a ratio of background noise.
        let health = (
            empty: Self.row(requests: 40_000, server: 4, postgres: 0.01, wal: 0),
            seeded: Self.row(requests: 40_000, server: 4.4, postgres: 0.03, wal: 0)
        )
        report.addComparison(
            database: "PostgreSQL",
            workload: "GET /health",
            concurrency: 16,
            empty: health.empty,
            seeded: health.seeded
        )
        let lines = report.markdown.split(separator: "\n")
        let signUp = try #require(lines.first { $0.contains("anonymous sign-up") })
        #expect(signUp.hasSuffix("| 750 | 850 | 1.13 | 1.00 / 1.40 | 2000 → 20000 |"), "\(signUp)")
        let floor = try #require(lines.first { $0.contains("GET /health") })
        #expect(floor.hasSuffix("| 1.10 | 1.10 / – | 0 → 0 |"), "\(floor)")
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "PostgreSQL's log position"))
    func theLogPositionAdvancesByWhatTheDatabaseWrites() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let postgres = try #require(harness.server.storage as? PostgresStorage)
        let logger = Logger(label: "wal-probe")
        let probe = WALProbe(client: postgres.client, logger: logger)
        let before = try await probe.bytes()
        try await postgres.client.query("CREATE TABLE wal_probe_rows (id int, text text)", logger: logger)
        try await postgres.client.query(
            "INSERT INTO wal_probe_rows SELECT n, repeat('x', 100) FROM generate_series(1, 1000) AS n",
            logger: logger
        )
        let after = try await probe.bytes()
        // A thousand rows of over a hundred bytes each went through the log.
        #expect(after - before > 100_000, "\(before) → \(after)")
        try await harness.server.storage.close()
    }

    private static func row(requests: Int, server: Double, postgres: Double, wal: Int64) -> LoadResult {
        var result = LoadResult(requests: requests, failures: 0, seconds: 4, latencies: [1])
        result.cpu = RowCPU(
            from: CPUProbe.Sample(server: 0, postgres: 0, loadGenerator: 0),
            to: CPUProbe.Sample(server: server, postgres: postgres, loadGenerator: 0)
        )
        result.walBytes = wal
        return result
    }
}
