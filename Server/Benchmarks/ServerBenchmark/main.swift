// Server benchmarks (issue 7): the release server as a child process, a SwiftNIO load
// generator on loopback at concurrency 1, 16 and 64, and each figure's bound measured in the
// same run on the same cores.
//
//     Benchmarks/run                                   (builds release, starts PostgreSQL)
//     gatehouse-server-benchmark [--postgres URL] [--seconds N]
//
// Issue 20, instead of the table: the same rows on a nearly empty and on a seeded database,
// side by side, with the database's size (`--seed-users 1000000 [--seed-sessions N]`); and a
// soak of mixed traffic sampling memory and database size (`--soak SECONDS`, not in CI); issue
// 32: `--soak-minutes N` offers a fixed 600 requests/s (`--soak-rate`), prints RSS and the
// database's size every minute and judges growth after the fifth minute against the fifth
// minute (within 10 %), on each database in turn. Issue 35: on PostgreSQL the refresh row is
// followed by pgbench on its statements and by this benchmark run as ``BareRefreshServer`` (its
// first argument `--bare-refresh-server`, a child process), the same statements behind HTTP with
// the answer's signature; on SQLite, `--seed-users` follows each half's refresh rows with the
// refresh's statements alone (``SQLiteRefreshStatements``).
import Foundation
import GatehouseServer
import GatehouseStorage
import Logging
import NIOHTTP1
import PostgresNIO

if CommandLine.arguments.dropFirst().first == BareRefreshServer.argument {
    try await BareRefreshServer.run(environment: ProcessInfo.processInfo.environment)
    exit(0)
}

var arguments = CommandLine.arguments.dropFirst()
var postgresURL = ProcessInfo.processInfo.environment["GATEHOUSE_BENCH_POSTGRES_URL"]
var duration = Duration.seconds(3)
var only: String?
var concurrencies = [1, 16, 64]
var sweepSessions = 1_000_000
var seedUsers: Int?
var seedSessions: Int?
var soak: SoakBench.Options?
var postgresOnly = false
while let argument = arguments.popFirst() {
    switch argument {
    case "--postgres": postgresURL = arguments.popFirst()
    case "--postgres-only": postgresOnly = true
    case "--seconds": duration = .seconds(Int(arguments.popFirst() ?? "") ?? 3)
    case "--only": only = arguments.popFirst()
    case "--concurrency": concurrencies = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--sweep-sessions": sweepSessions = Int(arguments.popFirst() ?? "") ?? sweepSessions
    case "--seed-users": seedUsers = Int(arguments.popFirst() ?? "")
    case "--seed-sessions": seedSessions = Int(arguments.popFirst() ?? "")
    case "--soak": soak = SoakBench.Options(seconds: Int(arguments.popFirst() ?? "") ?? 600, sample: 5, users: 8)
    case "--soak-minutes":
        soak = SoakBench.Options(seconds: 60 * (Int(arguments.popFirst() ?? "") ?? 10), sample: 5, users: 8, rate: 600)
    case "--soak-rate": soak?.rate = Int(arguments.popFirst() ?? "") ?? 0
    case "--soak-sample": soak?.sample = Int(arguments.popFirst() ?? "") ?? 5
    case "--soak-users": soak?.users = Int(arguments.popFirst() ?? "") ?? 8
    default:
        print(
            "usage: gatehouse-server-benchmark [--postgres postgres://user@host:port/db [--postgres-only]] [--seconds N]"
                + " [--only FIGURE] [--concurrency 1,16,64] [--sweep-sessions N]\n"
                + "       gatehouse-server-benchmark [--postgres URL] --seed-users N [--seed-sessions N] [--seconds N]\n"
                + "       gatehouse-server-benchmark [--postgres URL] --soak SECONDS | --soak-minutes N"
                + " [--soak-sample S] [--soak-users N] [--soak-rate REQUESTS_PER_SECOND]"
        )
        exit(2)
    }
}
if seedUsers != nil && soak != nil {
    print("--seed-users and --soak are separate runs")
    exit(2)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
var logger = Logger(label: "benchmark")
logger.logLevel = .error

print("Measuring bounds on \(Bounds.cores) cores…")
let bcryptBound = Bounds.bcryptPerSecond()
let verifyBound = try Bounds.es256VerificationsPerSecond()
var databases: [BenchDatabase] = [
    BenchDatabase(
        name: "SQLite",
        url: directory.appendingPathComponent("gatehouse.sqlite").path,
        transactionBound: try Bounds.sqliteTransactionsPerSecond(directory: directory)
    )
]
if let postgresURL {
    databases.append(try await BenchDatabase.postgres(adminURL: postgresURL, logger: logger))
    if postgresOnly { databases.removeFirst() }
}

var report = Report(cores: Bounds.cores, duration: duration)
print(loadAverage())
for database in databases {
    var environment = ["GATEHOUSE_DATABASE_URL": database.url, "GATEHOUSE_MAILER_AUTOCONFIRM": "true"]
    if database.name == "PostgreSQL" {
        environment["GATEHOUSE_SERVER_SECRET"] = "benchmark-secret-benchmark-secret-0001"
    }
    if let seedUsers {
        let sessions = seedSessions ?? seedUsers * 10
        report.seededName = "\(seedUsers) users"
        let options = ScaleBench.Options(
            users: seedUsers,
            sessions: sessions,
            duration: duration,
            concurrencies: concurrencies,
            only: only
        )
        report = try await ScaleBench.run(
            database: database,
            environment: environment,
            directory: directory,
            options: options,
            report: report,
            logger: logger
        )
        continue
    }
    if let soak {
        report = try await SoakBench.run(
            database: database,
            environment: environment,
            directory: directory,
            options: soak,
            report: report,
            logger: logger
        )
        continue
    }
    print("\(database.name): starting the server…")
    let server = try await ServerChild(environment: environment, directory: directory)
    try await Task.sleep(for: .seconds(1))
    report.add(
        database: database.name,
        figure: "start to first response",
        value: milliseconds(server.startToFirstResponse),
        unit: "ms"
    )
    report.add(database: database.name, figure: "idle memory (RSS)", value: server.residentMiB, unit: "MiB")
    report.cpu.add(database: database.name, idleMiB: server.residentMiB)
    let probe = CPUProbe(server: server.process.processIdentifier, postmaster: database.postmaster)
    let signup = try await HTTPConnection.with(port: server.port) {
        try await $0.send(
            .POST,
            "/signup",
            json: #"{"email":"\#(Workloads.email)","password":"\#(Workloads.password)"}"#
        )
    }
    guard signup.status == 200, let accessToken = signup.field("access_token"),
        let signatureStart = accessToken.lastIndex(of: ".")
    else { fatalError("could not create the benchmark user: \(signup.body)") }
    // What an access token's ES256 signature covers: its header and claims, base64url.
    let signingInputLength = accessToken[..<signatureStart].utf8.count
    let plan: [(Workload, Double?, String)] = [
        (Workloads.health, nil, "none (HTTP floor)"),
        (Workloads.passwordSignIn, bcryptBound, "bcrypt verifications/s"),
        (Workloads.refresh, database.transactionBound, "durable 1-row transactions/s"),
        (Workloads.getUser, verifyBound, "ES256 verifications/s"),
        (Workloads.anonymousSignUp, database.transactionBound, "durable 1-row transactions/s"),
    ]
    var floor = 0.0
    for (workload, bound, boundName) in plan where only.map(workload.name.contains) ?? true {
        for concurrency in concurrencies {
            let result = try await runLoad(
                workload,
                port: server.port,
                concurrency: concurrency,
                duration: duration,
                probe: probe
            )
            if workload.name == Workloads.health.name { floor = max(floor, result.throughput) }
            report.add(
                database: database.name,
                workload: workload.name,
                concurrency: concurrency,
                result: result,
                bound: bound,
                boundName: boundName
            )
            print("  \(workload.name) ×\(concurrency): \(Int(result.throughput))/s")
            if workload.name != Workloads.health.name {
                // The floor at this row's rate: GET /health paced to the same requests per second.
                let paced = try await runLoad(
                    Workloads.health,
                    port: server.port,
                    concurrency: concurrency,
                    duration: duration,
                    probe: probe,
                    rate: result.throughput
                )
                report.cpu.addPacedFloor(
                    database: database.name,
                    workload: workload.name,
                    concurrency: concurrency,
                    result: paced
                )
            }
            if workload.name == Workloads.refresh.name, let pgbench = database.pgbench {
                let run = try await pgbench.run(
                    concurrency: concurrency,
                    duration: duration,
                    expectedRate: result.throughput
                )
                print("  pgbench, the refresh's statements ×\(run.connections): \(Int(run.transactionsPerSecond))/s")
                let alone = try await BareRefreshBound(
                    client: pgbench.client,
                    postmaster: pgbench.postmaster,
                    directory: directory,
                    logger: logger
                )
                .run(
                    environment: environment,
                    concurrency: concurrency,
                    duration: duration,
                    answerLength: signup.body.utf8.count,
                    signedLength: signingInputLength
                )
                print(
                    "  HTTP, the refresh's statements and its signature alone ×\(concurrency): \(Int(alone.throughput))/s"
                )
                report.add(
                    database: database.name,
                    workload: Workloads.bareRefreshName,
                    concurrency: concurrency,
                    result: alone,
                    bound: run.transactionsPerSecond,
                    boundName: "pgbench refreshes/s"
                )
                report.cpu.add(
                    database: database.name,
                    concurrency: concurrency,
                    refreshes: result.throughput,
                    pgbench: run,
                    alone: alone
                )
            }
        }
    }
    if floor > 0 {
        // Each GET /user costs at least one HTTP round trip and one verification on the same cores.
        report.add(
            database: database.name,
            figure: "GET /user ceiling: 1 / (1 / best HTTP floor + 1 / ES256 bound)",
            value: 1 / (1 / floor + 1 / verifyBound),
            unit: "requests/s"
        )
    }
    server.stop()
    if only.map({ "session sweep".contains($0) }) ?? true {
        print("\(database.name): the session sweep…")
        let sweep = try await SessionSweepBench.run(
            database: database,
            environment: environment,
            sessions: sweepSessions,
            logger: logger
        )
        report.add(
            database: database.name,
            figure:
                "session sweep: \(sweep.deleted) ended sessions (beside 1,000 live) deleted in \(sweep.passes) passes",
            value: sweep.seconds,
            unit: "s"
        )
        report.add(
            database: database.name,
            figure: "session sweep rate (500-row transactions)",
            value: Double(sweep.deleted) / sweep.seconds,
            unit: "sessions/s"
        )
    }
}
await databases.asyncClose()
print()
print(report.markdown)
print()
print(loadAverage())
