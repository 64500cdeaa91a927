import Foundation

/// The table the benchmark prints: each figure beside the bound it is compared with.
struct Report {
    let cores: Int
    let duration: Duration
    private var rows: [String] = []
    private var others: [String] = []
    private var comparisons: [String] = []
    /// The seeded database's name in the comparison table's header.
    var seededName = "seeded"
    /// CPU per request, the pgbench bound and the idle-memory bar (issue 35).
    var cpu = CPUTable()

    init(cores: Int, duration: Duration) {
        self.cores = cores
        self.duration = duration
    }

    /// A load figure; `bound` is nil for a reference row that no primitive bounds.
    mutating func add(
        database: String,
        workload: String,
        concurrency: Int,
        result: LoadResult,
        bound: Double?,
        boundName: String
    ) {
        cpu.add(database: database, workload: workload, concurrency: concurrency, result: result)
        let compared = bound.map { String(format: "%.0f %@ | %.2f", $0, boundName, result.throughput / $0) }
        rows.append(
            String(
                format: "| %@ | %@ | %d | %.0f | %.2f | %.2f | %d | %@ |",
                database,
                workload,
                concurrency,
                result.throughput,
                result.median,
                result.p99,
                result.failures,
                compared ?? "\(boundName) | –"
            )
        )
    }

    /// A figure on the nearly empty database beside the same figure on the seeded one: the rate,
    /// and the CPU per request of the server and its database together (the server's process;
    /// PostgreSQL's cluster where it runs), which moves far less than a rate on shared cores.
    mutating func addComparison(
        database: String,
        workload: String,
        concurrency: Int,
        empty: LoadResult,
        seeded: LoadResult
    ) {
        let emptyCPU = Self.serverAndDatabaseMicroseconds(empty)
        let seededCPU = Self.serverAndDatabaseMicroseconds(seeded)
        let cpuRatio = emptyCPU.flatMap { empty in seededCPU.map { $0 / max(empty, 1e-9) } }
        // Where PostgreSQL runs in its own processes, the two parts apart, and its log.
        let parts = Self.partRatios(empty, seeded)
        let wal = Self.walPerRequest(empty).flatMap { empty in
            Self.walPerRequest(seeded).map { String(format: "%.0f → %.0f", empty, $0) }
        }
        comparisons.append(
            String(
                format: "| %@ | %@ | %d | %.0f | %.0f | %.2f | %.2f | %.2f | %d | %@ | %@ | %@ | %@ | %@ |",
                database,
                workload,
                concurrency,
                empty.throughput,
                seeded.throughput,
                seeded.throughput / max(empty.throughput, 1e-9),
                empty.p99,
                seeded.p99,
                empty.failures + seeded.failures,
                emptyCPU.map { String(format: "%.0f", $0) } ?? "–",
                seededCPU.map { String(format: "%.0f", $0) } ?? "–",
                cpuRatio.map { String(format: "%.2f", $0) } ?? "–",
                parts.map {
                    String(format: "%.2f / %@", $0.server, $0.database.map { String(format: "%.2f", $0) } ?? "–")
                }
                    ?? "–",
                wal ?? "–"
            )
        )
    }

    /// Seeded ÷ empty CPU per request of the server alone and of PostgreSQL alone; the
    /// database's part only for a row that costs it at least a microsecond a request (not
    /// `GET /health`, where its background work alone would make the ratio).
    private static func partRatios(_ empty: LoadResult, _ seeded: LoadResult) -> (server: Double, database: Double?)? {
        guard let emptyCPU = empty.cpu, let seededCPU = seeded.cpu,
            let emptyDatabase = emptyCPU.postgres, let seededDatabase = seededCPU.postgres
        else { return nil }
        let emptyRequests = Double(max(empty.requests, 1))
        let seededRequests = Double(max(seeded.requests, 1))
        let emptyDatabasePerRequest = emptyDatabase / emptyRequests
        return (
            (seededCPU.server / seededRequests) / max(emptyCPU.server / emptyRequests, 1e-12),
            emptyDatabasePerRequest >= 1e-6 ? (seededDatabase / seededRequests) / emptyDatabasePerRequest : nil
        )
    }

    /// Bytes of PostgreSQL's log per request over the row's window.
    private static func walPerRequest(_ result: LoadResult) -> Double? {
        result.walBytes.map { Double($0) / Double(max(result.requests, 1)) }
    }

    /// The server's and its database's CPU per request over the row's window, in µs.
    private static func serverAndDatabaseMicroseconds(_ result: LoadResult) -> Double? {
        result.cpu.map { ($0.server + ($0.postgres ?? 0)) / Double(max(result.requests, 1)) * 1e6 }
    }

    mutating func add(database: String, figure: String, value: Double, unit: String) {
        others.append(String(format: "| %@ | %@ | %.1f %@ |", database, figure, value, unit))
    }

    var markdown: String {
        var lines = [
            "Server, \(cores) cores, \(Int(seconds(duration))) s per row, load generator and server on the same cores",
            "",
            "| Database | Figure | Concurrency | Requests/s | Median ms | p99 ms | Failed | Bound (same run) | Ratio |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        if !rows.isEmpty {
            lines += rows
        } else {
            lines.removeLast(2)
        }
        if !comparisons.isEmpty {
            lines += [
                "",
                "| Database | Figure | Concurrency | Empty requests/s | \(seededName) requests/s | Ratio | Empty p99 ms"
                    + " | \(seededName) p99 ms | Failed | Empty CPU µs/request (server + database)"
                    + " | \(seededName) CPU µs/request | CPU ratio | CPU ratio: server / database"
                    + " | WAL bytes/request, empty → \(seededName) |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            lines += comparisons
        }
        lines += ["", "| Database | Figure | Value |", "|---|---|---|"]
        lines += others
        let cpuLines = cpu.markdown
        if !cpuLines.isEmpty { lines += ["", cpuLines] }
        return lines.joined(separator: "\n")
    }
}
