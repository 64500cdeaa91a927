import Foundation

/// Issue 35: what each row cost in CPU per request (the server, PostgreSQL's cluster, the load
/// generator), each as a multiple of the HTTP floor's (`GET /health`, same database run, same
/// concurrency), beside the targets; the pgbench bound of the refresh on PostgreSQL; and the
/// idle memory against its 40 MiB bar.
struct CPUTable {
    /// The targets on the server's CPU per request, as a multiple of the floor's.
    static let serverTargets: [String: [String: Double]] = [
        "SQLite": [Workloads.getUser.name: 2.0, Workloads.refresh.name: 3.0, Workloads.anonymousSignUp.name: 3.0],
        "PostgreSQL": [Workloads.refresh.name: 3.0],
    ]
    /// The refresh rate through the server, as a share of pgbench's rate on the same statements.
    static let pgbenchTarget = 0.6
    static let idleMemoryBound = 40.0

    private struct Row {
        var database: String
        var workload: String
        var concurrency: Int
        var requests: Int
        var cpu: RowCPU

        func perRequest(_ seconds: Double) -> Double { seconds / Double(max(requests, 1)) * 1e6 }
    }

    private var rows: [Row] = []
    /// `GET /health` paced at each row's rate, after it: key "database|workload|concurrency".
    private var pacedFloors: [String: Row] = [:]
    private var pgbench: [String] = []
    private var memory: [String] = []
    /// Each target's verdicts, in order.
    private(set) var verdicts: [String] = []

    mutating func add(database: String, workload: String, concurrency: Int, result: LoadResult) {
        guard let cpu = result.cpu else { return }
        rows.append(
            Row(database: database, workload: workload, concurrency: concurrency, requests: result.requests, cpu: cpu)
        )
    }

    /// The floor measured at the rate of `workload`'s row (`GET /health`, paced): at a lower
    /// rate each wake-up of an event loop serves fewer requests, so an empty request costs more
    /// than in the floor's own row, which runs as fast as it can.
    mutating func addPacedFloor(database: String, workload: String, concurrency: Int, result: LoadResult) {
        guard let cpu = result.cpu else { return }
        pacedFloors["\(database)|\(workload)|\(concurrency)"] = Row(
            database: database,
            workload: Workloads.health.name,
            concurrency: concurrency,
            requests: result.requests,
            cpu: cpu
        )
    }

    /// The floor at `row`'s rate; for ``BareRefreshServer``'s row, the refresh row's (it has no
    /// floor of its own: its bound is read against the server's floor at the refresh's rate).
    private func pacedFloor(of row: Row) -> Double? {
        let workload = row.workload == Workloads.bareRefreshName ? Workloads.refresh.name : row.workload
        return pacedFloors["\(row.database)|\(workload)|\(row.concurrency)"].map { $0.perRequest($0.cpu.server) }
    }

    /// A pgbench run of the refresh's statements beside the refresh row at `concurrency`, and
    /// ``BareRefreshServer``'s row after it: the same statements behind HTTP, with the answer's
    /// signature and nothing else.
    mutating func add(
        database: String,
        concurrency: Int,
        refreshes: Double,
        pgbench run: PgbenchBound.Run,
        alone: LoadResult
    ) {
        let ratio = refreshes / max(run.transactionsPerSecond, 1e-9)
        let aloneRatio = alone.throughput / max(run.transactionsPerSecond, 1e-9)
        let ofAlone = refreshes / max(alone.throughput, 1e-9)
        pgbench.append(
            String(
                format: "| %@ | %d | %d | %.0f | %.0f | %.0f | %.2f | ≥ %.1f | %@ | %.0f | %.2f | %.2f |",
                database,
                concurrency,
                run.connections,
                refreshes,
                run.transactionsPerSecond,
                run.postgresMicrosecondsPerTransaction,
                ratio,
                Self.pgbenchTarget,
                ratio >= Self.pgbenchTarget ? "met" : "not met",
                alone.throughput,
                aloneRatio,
                ofAlone
            )
        )
        verdicts.append(
            String(
                format: "%@ refresh ×%d: %.0f/s = %.2f of pgbench's %.0f/s (bound ≥ %.1f): %@;"
                    + " HTTP, the statements and the signature alone %.0f/s = %.2f of pgbench; the server %.2f of that",
                database,
                concurrency,
                refreshes,
                ratio,
                run.transactionsPerSecond,
                Self.pgbenchTarget,
                ratio >= Self.pgbenchTarget ? "met" : "NOT met",
                alone.throughput,
                aloneRatio,
                ofAlone
            )
        )
    }

    /// The server's idle resident memory against the 40 MiB bar, drawn one character per MiB.
    mutating func add(database: String, idleMiB: Double) {
        let width = Int(Self.idleMemoryBound) + 8
        let filled = min(width, Int(idleMiB.rounded()))
        var bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let mark = bar.index(bar.startIndex, offsetBy: Int(Self.idleMemoryBound))
        bar.replaceSubrange(mark...mark, with: "|")
        let met = idleMiB <= Self.idleMemoryBound
        memory.append(
            String(
                format: "%@ %5.1f MiB %@ bound %.0f MiB: %@",
                database.padding(toLength: 11, withPad: " ", startingAt: 0),
                idleMiB,
                bar,
                Self.idleMemoryBound,
                met ? "met" : "NOT met"
            )
        )
        verdicts.append(
            String(
                format: "%@ idle memory %.1f MiB (bound ≤ %.0f MiB): %@",
                database,
                idleMiB,
                Self.idleMemoryBound,
                met ? "met" : "NOT met"
            )
        )
    }

    /// The floor's row of `database` at `concurrency`.
    private func floorRow(_ database: String, _ concurrency: Int) -> Row? {
        rows.first { $0.database == database && $0.concurrency == concurrency && $0.workload == Workloads.health.name }
    }

    var markdown: String {
        var lines: [String] = []
        if !rows.isEmpty {
            lines += [
                "CPU per request over each row's window (`/proc/<pid>/stat` utime + stime; the server is a child"
                    + " process; PostgreSQL is every process of its cluster), and as a multiple of `GET /health`'s"
                    + " at the same concurrency in the same run; beside it, as a multiple of `GET /health`'s paced"
                    + " at the row's own rate right after it (the floor at that rate, µs in brackets; the row of"
                    + " HTTP, the refresh's statements and its signature alone against the refresh row's)",
                "",
                "| Database | Figure | Concurrency | Server µs/request | × floor | Bound | × floor at its rate"
                    + " | PostgreSQL µs/request | × floor (server's) | Load generator µs/request |",
                "|---|---|---|---|---|---|---|---|---|---|",
            ]
            for row in rows {
                let floor = floorRow(row.database, row.concurrency)
                let server = row.perRequest(row.cpu.server)
                let serverRatio = floor.map { server / max($0.perRequest($0.cpu.server), 1e-9) }
                let target = Self.serverTargets[row.database]?[row.workload]
                var bound = "–"
                if let target, let serverRatio {
                    bound = String(format: "≤ %.1f %@", target, serverRatio <= target ? "met" : "not met")
                }
                // The floor touches no database: PostgreSQL's part is measured against the floor's
                // server CPU, as the server's is.
                let postgres = row.cpu.postgres.map(row.perRequest)
                let floorServer = floor.map { $0.perRequest($0.cpu.server) }
                let postgresRatio = postgres.flatMap { value in floorServer.map { value / max($0, 1e-9) } }
                let paced = pacedFloor(of: row).map {
                    Self.format(server / max($0, 1e-9), "%.2f") + " (" + Self.format($0, "%.0f") + ")"
                }
                lines.append(
                    "| \(row.database) | \(row.workload) | \(row.concurrency) | \(Self.format(server, "%.0f"))"
                        + " | \(serverRatio.map { Self.format($0, "%.2f") } ?? "–") | \(bound) | \(paced ?? "–")"
                        + " | \(postgres.map { Self.format($0, "%.0f") } ?? "–")"
                        + " | \(postgresRatio.map { Self.format($0, "%.2f") } ?? "–")"
                        + " | \(Self.format(row.perRequest(row.cpu.loadGenerator), "%.0f")) |"
                )
            }
        }
        if !pgbench.isEmpty {
            lines += [
                "",
                "The refresh on PostgreSQL against pgbench running its statements (the read of the session with its"
                    + " user, the rotation with its audit line; `-M prepared`, as many connections as the server"
                    + " uses: min(concurrency, its pool of 10)), in the same run; then the same statements behind"
                    + " HTTP with the answer's ES256 signature and nothing of Gatehouse's (Hummingbird, the body"
                    + " decoded, PostgresNIO's pool of 10, prepared, swift-crypto: the stack's own bound), and the"
                    + " server's rate as a share of that",
                "",
                "| Database | Concurrency | pgbench connections | Refreshes/s (server) | pgbench refreshes/s"
                    + " | PostgreSQL µs/pgbench refresh | Ratio | Bound | | HTTP + statements + signature alone, refreshes/s"
                    + " | Alone ÷ pgbench | Server ÷ alone |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            lines += pgbench
        }
        if !memory.isEmpty {
            lines += [
                "", "Idle memory (`VmRSS` one second after the first answer), one █ per MiB, | at the bound:", "",
            ]
            lines += memory.map { "    " + $0 }
        }
        let serverVerdicts = rows.compactMap { row -> String? in
            guard let target = Self.serverTargets[row.database]?[row.workload],
                let floor = floorRow(row.database, row.concurrency)
            else { return nil }
            let server = row.perRequest(row.cpu.server)
            let ratio = server / max(floor.perRequest(floor.cpu.server), 1e-9)
            let atItsRate = pacedFloor(of: row).map {
                String(format: "; %.2f × the floor at its rate, %.0f", server / max($0, 1e-9), $0)
            }
            return String(
                format: "%@ %@ ×%d: server CPU %.0f µs/request = %.2f × the floor's %.0f (bound ≤ %.1f): %@%@",
                row.database,
                row.workload,
                row.concurrency,
                server,
                ratio,
                floor.perRequest(floor.cpu.server),
                target,
                ratio <= target ? "met" : "NOT met",
                atItsRate ?? ""
            )
        }
        let all = serverVerdicts + verdicts
        if !all.isEmpty {
            lines += ["", "Targets (issue 35):", ""]
            lines += all.map { "- " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double, _ format: String) -> String {
        String(format: format, value)
    }
}
