import Foundation
import HummingbirdBcrypt
import Logging

/// Issue 20: the table's figures on a nearly empty database and on one seeded with `users`
/// users and `sessions` session rows, side by side, and the database's size.
///
/// The server migrates a fresh database and stops; the seeder (``Seeder``) writes 1,000 users,
/// the server runs every row against them (the empty column); the seeder adds the rest of the
/// users and the session rows, the server runs every row again (the seeded column). Both runs
/// pick their users at random among the seeded ones (``SeededWorkloads``). The sweep is held off
/// (`GATEHOUSE_SESSION_SWEEP_SECONDS` a day) so that the seeded run meets the whole backlog of
/// ended sessions, the worst case. On SQLite, each half's refresh rows are followed by the same
/// refreshes without the server (``SQLiteRefreshStatements``): the database's own part of what
/// the size costs a refresh.
enum ScaleBench {
    static let emptyUsers = 1_000

    struct Options {
        var users: Int
        var sessions: Int
        var duration: Duration
        var concurrencies: [Int]
        var only: String?
    }

    static func run(
        database: BenchDatabase,
        environment baseEnvironment: [String: String],
        directory: URL,
        options: Options,
        report initial: Report,
        logger: Logger
    ) async throws -> Report {
        var report = initial
        var environment = baseEnvironment
        environment["GATEHOUSE_SESSION_SWEEP_SECONDS"] = "86400"
        if database.client == nil {
            environment["GATEHOUSE_DATABASE_URL"] = directory.appendingPathComponent("scale.sqlite").path
        }
        let size = DatabaseSize(database: database, url: environment["GATEHOUSE_DATABASE_URL"] ?? "", logger: logger)
        // The server migrates the fresh database.
        try await ServerChild(environment: environment, directory: directory).stop()
        let passwordHash = Bcrypt.hash(Workloads.password, cost: 10)
        let wal = database.client.map { WALProbe(client: $0, logger: logger) }
        let emptyUsers = min(Self.emptyUsers, options.users)

        try await seed(database, environment, users: 0..<emptyUsers, sessions: 0, hash: passwordHash, logger: logger)
        let emptyBytes = try await size.bytes()
        print("\(database.name): \(emptyUsers) users, \(format(bytes: emptyBytes)); the empty run…")
        let empty = try await measure(
            environment,
            directory: directory,
            users: emptyUsers,
            postmaster: database.postmaster,
            wal: wal,
            options: options
        )

        let clock = ContinuousClock()
        var started = clock.now
        try await seed(
            database,
            environment,
            users: emptyUsers..<options.users,
            sessions: 0,
            hash: passwordHash,
            logger: logger
        )
        let usersTime = seconds(clock.now - started)
        let usersBytes = try await size.bytes()
        print("\(database.name): \(options.users) users in \(Int(usersTime)) s, \(format(bytes: usersBytes))")
        started = clock.now
        try await seed(
            database,
            environment,
            users: 0..<0,
            sessions: options.sessions,
            sessionUsers: options.users,
            hash: passwordHash,
            logger: logger
        )
        let sessionsTime = seconds(clock.now - started)
        let allBytes = try await size.bytes()
        print(
            "\(database.name): \(options.sessions) sessions in \(Int(sessionsTime)) s, \(format(bytes: allBytes));"
                + " the seeded run…"
        )
        let seeded = try await measure(
            environment,
            directory: directory,
            users: options.users,
            postmaster: database.postmaster,
            wal: wal,
            options: options
        )

        for (key, emptyResult) in empty.sorted(by: { $0.key.order < $1.key.order }) {
            guard let seededResult = seeded[key] else { continue }
            report.addComparison(
                database: database.name,
                workload: key.workload,
                concurrency: key.concurrency,
                empty: emptyResult,
                seeded: seededResult
            )
        }
        let millions = Double(options.users - emptyUsers) / 1_000_000
        report.add(
            database: database.name,
            figure: "seed: \(options.users) users (\(Int(usersTime)) s), \(options.sessions) session rows",
            value: sessionsTime,
            unit: "s"
        )
        report.add(
            database: database.name,
            figure: "database size, \(emptyUsers) users",
            value: Double(emptyBytes) / 1_048_576,
            unit: "MiB"
        )
        report.add(
            database: database.name,
            figure: "database size per million users (users, identities, indexes)",
            value: Double(usersBytes - emptyBytes) / 1_048_576 / max(millions, 1e-9),
            unit: "MiB"
        )
        report.add(
            database: database.name,
            figure: "database size per million session rows",
            value: Double(allBytes - usersBytes) / 1_048_576 / max(Double(options.sessions) / 1_000_000, 1e-9),
            unit: "MiB"
        )
        report.add(
            database: database.name,
            figure: "database size, \(options.users) users and \(options.sessions) session rows",
            value: Double(allBytes) / 1_048_576,
            unit: "MiB"
        )
        return report
    }

    /// The row of the refresh's statements alone on SQLite (``SQLiteRefreshStatements``).
    static let refreshStatementsName = "refresh's statements alone (SQLite's C API, one thread)"

    struct Key: Hashable {
        var workload: String
        var concurrency: Int
        var order: Int
    }

    /// Every row of the plan against a server started on the database as it is now, with the CPU
    /// the server and `postmaster`'s cluster spent over each row's window, and on PostgreSQL the
    /// log it wrote (`wal`).
    static func measure(
        _ environment: [String: String],
        directory: URL,
        users: Int,
        postmaster: Int32?,
        wal: WALProbe?,
        options: Options
    ) async throws -> [Key: LoadResult] {
        // The seed leaves gigabytes of dirty pages that the kernel writes back over the next
        // minute, on the same cores and disk as the rows: wait for them first, for either run.
        sync()
        let server = try await ServerChild(environment: environment, directory: directory)
        defer { server.stop() }
        let probe = CPUProbe(server: server.process.processIdentifier, postmaster: postmaster)
        try await Task.sleep(for: .seconds(1))
        var results: [Key: LoadResult] = [:]
        for (position, workload) in SeededWorkloads.plan(users: users).enumerated()
        where options.only.map(workload.name.contains) ?? true {
            for (offset, concurrency) in options.concurrencies.enumerated() {
                let result = try await runLoad(
                    workload,
                    port: server.port,
                    concurrency: concurrency,
                    duration: options.duration,
                    probe: probe,
                    wal: wal
                )
                results[Key(workload: workload.name, concurrency: concurrency, order: position * 100 + offset)] =
                    result
                print("  \(workload.name) ×\(concurrency): \(Int(result.throughput))/s   (\(loadAverage()))")
            }
            if workload.name == Workloads.refresh.name, postmaster == nil,
                let path = environment["GATEHOUSE_DATABASE_URL"]
            {
                // The same refreshes without the server, on the sessions the rows just made.
                let alone = try SQLiteRefreshStatements.run(
                    path: path,
                    sessions: options.concurrencies.max() ?? 1,
                    duration: options.duration
                )
                var result = LoadResult(
                    requests: alone.refreshes,
                    failures: 0,
                    seconds: seconds(options.duration),
                    latencies: []
                )
                result.cpu = RowCPU(inProcess: alone.cpuSeconds)
                results[Key(workload: refreshStatementsName, concurrency: 1, order: position * 100 + 99)] = result
                print(
                    "  \(refreshStatementsName): \(Int(result.throughput))/s, \(Int(alone.microsecondsPerRefresh)) µs CPU each"
                )
            }
        }
        return results
    }

    static func seed(
        _ database: BenchDatabase,
        _ environment: [String: String],
        users: Range<Int>,
        sessions: Int,
        sessionUsers: Int = 1,
        hash: String,
        logger: Logger
    ) async throws {
        let now = Date()
        if let client = database.client {
            try await Seeder.seedPostgres(
                client: client,
                users: users,
                sessions: sessions,
                sessionUsers: sessionUsers,
                passwordHash: hash,
                now: now,
                logger: logger
            )
        } else {
            try Seeder.seedSQLite(
                path: environment["GATEHOUSE_DATABASE_URL"] ?? "",
                users: users,
                sessions: sessions,
                sessionUsers: sessionUsers,
                passwordHash: hash,
                now: now
            )
        }
    }
}

func format(bytes: Int64) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}

/// The machine's load average (`/proc/loadavg`): other work on the same cores.
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return "load average " + text.split(separator: " ").prefix(3).joined(separator: ", ")
}
