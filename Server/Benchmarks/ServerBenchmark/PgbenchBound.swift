import Foundation
import GatehouseServer
import GatehouseStorage
import Logging
import PostgresNIO

/// Issue 35: the bound of the refresh on PostgreSQL. pgbench (Debian's, beside the cluster's
/// binaries) runs the refresh's own statements (``RefreshStatements``: the read of the session
/// with its user, then the rotation with its audit line, each committed as the server commits
/// them), prepared, on sessions the benchmark's refresh row made, with as many connections as
/// the server holds in that row, for as long as the row, right after it in the same run.
///
/// A transaction of the script also reads one row of a small table to pick its session (pgbench
/// cannot draw a random text); that read is PostgreSQL's cheapest kind (a primary-key lookup in
/// a table of a few hundred rows), so the bound is a little lower than the statements alone.
struct PgbenchBound {
    /// One pgbench run.
    struct Run {
        var connections: Int
        var transactionsPerSecond: Double
        /// PostgreSQL's CPU (every process of the cluster) per pgbench transaction.
        var postgresMicrosecondsPerTransaction: Double
    }

    /// The server's pool (``PostgresSettings/poolSize``'s default): the connections a row holds
    /// at most.
    static let serverConnections = 10

    let binary: String
    let url: String
    let postmaster: Int32
    let client: PostgresClient
    let directory: URL
    let logger: Logger

    /// pgbench of the newest installed PostgreSQL, `nil` when there is none.
    static func findBinary() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted()
        let candidates = versions.reversed().map { "\(root)/\($0)/bin/pgbench" } + ["/usr/bin/pgbench"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The postmaster of the cluster `client` is connected to: the parent of one of its backends.
    static func postmaster(of client: PostgresClient, logger: Logger) async throws -> Int32? {
        for try await pid in try await client.query("SELECT pg_backend_pid()::int4", logger: logger).decode(Int32.self)
        {
            return ProcessCPU.parent(of: pid)
        }
        return nil
    }

    /// Runs the refresh's statements with as many connections as the server holds at
    /// `concurrency`, on the sessions in the database now, for about `duration`: each connection
    /// runs its share of what `expectedRate` (refreshes/s) would do in that time.
    func run(concurrency: Int, duration: Duration, expectedRate: Double) async throws -> Run {
        try await client.query("DROP TABLE IF EXISTS gatehouse_pgbench_sessions", logger: logger)
        try await client.query(
            """
            CREATE TABLE gatehouse_pgbench_sessions AS
            SELECT (row_number() OVER ())::int AS n, id FROM sessions
            """,
            logger: logger
        )
        try await client.query("ALTER TABLE gatehouse_pgbench_sessions ADD PRIMARY KEY (n)", logger: logger)
        try await client.query("ANALYZE gatehouse_pgbench_sessions", logger: logger)
        var count = 0
        for try await n in try await client.query(
            "SELECT count(*)::int4 FROM gatehouse_pgbench_sessions",
            logger: logger
        )
        .decode(Int32.self) {
            count = Int(n)
        }
        let script = directory.appendingPathComponent("refresh.pgbench")
        try Self.script(sessions: count).write(to: script, atomically: true, encoding: .utf8)
        let connections = min(concurrency, Self.serverConnections)
        let transactions = max(200, Int(expectedRate * seconds(duration)) / connections)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "-n", "-M", "prepared", "-c", String(connections), "-j", String(min(connections, Bounds.cores)),
            // A count, not `-T`: pgbench ends a timed run on SIGALRM, which the threads this
            // process spawns from block, and the child inherits the mask (it would never end).
            "-t", String(transactions), "-D", "ip=127.0.0.1", "-D", "action=token_refreshed",
            "-f", script.path, url,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let processes = ProcessCPU.childCount(of: postmaster)
        let before = ProcessCPU.clusterSeconds(postmaster: postmaster)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // pgbench's backends end after it does. One the postmaster waits for between the read of
        // its own counters and the scan of its children's would be counted in neither (a run at
        // one connection once read 13 µs a refresh): read once they are all waited for (at most
        // 5 s).
        let clock = ContinuousClock()
        let waited = clock.now
        while ProcessCPU.childCount(of: postmaster) > processes, clock.now - waited < .seconds(5) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let postgres = ProcessCPU.clusterSeconds(postmaster: postmaster) - before
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let tps = Double(line.dropFirst(6).prefix { $0 != " " })
        else { throw LoadError.unexpected("pgbench failed: \(text)") }
        // With -t, every connection ran its count (a failed one would have failed the run).
        let processed = Double(transactions * connections)
        return Run(
            connections: connections,
            transactionsPerSecond: tps,
            postgresMicrosecondsPerTransaction: postgres / processed * 1e6
        )
    }

    /// The pgbench script: pick a session, read it with its user (keeping its counter and user),
    /// rotate it with its audit line. `?` placeholders become pgbench variables, which
    /// `-M prepared` binds as parameters, as the server binds values.
    static func script(sessions: Int) -> String {
        let read = fill(RefreshStatements.postgresRead, with: [":sid"])
        let rotation = fill(
            RefreshStatements.postgresRotation,
            with: [
                ":now", ":now", ":ip", ":day", ":sid", ":r_s_counter", ":now", ":action", ":r_s_user_id", ":ip", "NULL", "NULL",
            ]
        )
        return """
            \\set n random(1, \(max(sessions, 1)))
            SELECT id AS sid, extract(epoch FROM clock_timestamp())::float8 AS now,
                floor(extract(epoch FROM clock_timestamp()) / 86400) * 86400 AS day
                FROM gatehouse_pgbench_sessions WHERE n = :n \\gset
            \(read) \\gset r_
            \(rotation);

            """
    }

    /// `sql` with its `?` placeholders replaced, in order, by `values`.
    private static func fill(_ sql: String, with values: [String]) -> String {
        var remaining = values[...]
        var output = ""
        for character in sql {
            if character == "?", let value = remaining.popFirst() {
                output += value
            } else {
                output.append(character)
            }
        }
        precondition(remaining.isEmpty, "the statement has fewer placeholders than expected")
        return output
    }
}
