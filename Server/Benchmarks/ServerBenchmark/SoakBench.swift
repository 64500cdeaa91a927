import Foundation
import Logging
import NIOHTTP1

/// Issue 20: does anything grow without bound under steady traffic? The release server runs for
/// `seconds` under mixed traffic while its resident memory and its database's size are sampled
/// every `sample` seconds; a verdict compares the last third of the run with the middle third.
///
/// Each virtual user repeats one account's life: sign-up, password sign-in, refreshes, `GET
/// /user`s, a code e-mailed to one of a fixed pool of accounts, a logout, and the account's
/// deletion. The sweep runs every 10 s with a three-minute audit retention, so the rows that
/// outlive a request (the audit log above all: every sign-in and refresh writes a line) reach
/// the age at which they are swept within the run; bcrypt cost 4 keeps the traffic on the
/// database rather than on hashing. Not in CI: `gatehouse-server-benchmark --soak 600`.
enum SoakBench {
    struct Options {
        var seconds: Int
        var sample: Int
        var users: Int
        /// The offered load, requests per second for all users together; 0: as fast as the
        /// server answers. A fixed load keeps the rows that live for the audit retention at one
        /// level, so the database's size can settle; an unpaced run's size follows the machine's
        /// speed, which other work on shared cores changes.
        var rate = 0
    }

    static let retentionDays = "0.002"  // 172.8 s
    static let poolSize = 100

    struct Sample {
        var second: Int
        var residentMiB: Double
        var bytes: Int64
        var requests: Int
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
        environment["GATEHOUSE_SESSION_SWEEP_SECONDS"] = "10"
        environment["GATEHOUSE_AUDIT_RETENTION_DAYS"] = retentionDays
        environment["GATEHOUSE_BCRYPT_COST"] = "4"
        environment["GATEHOUSE_SMTP_MAX_FREQUENCY"] = "0"
        // Every mail budget (MailBudget) out of the way: a hundred standing accounts are mailed
        // about fifty times a second from one address, far past what a person may ask for.
        for budget in [
            "EMAIL_PER_ADDRESS", "EMAIL_PER_ADDRESS_CLIENT", "EMAIL_SENT", "EMAIL_SENT_UNCONFIRMED", "SIGNUP_EMAIL",
        ] {
            environment["GATEHOUSE_RATE_LIMIT_\(budget)"] = "1000000"
        }
        environment["GATEHOUSE_RATE_LIMIT_USER_UPDATE"] = "1000000"
        if database.client == nil {
            environment["GATEHOUSE_DATABASE_URL"] = directory.appendingPathComponent("soak.sqlite").path
        }
        let size = DatabaseSize(database: database, url: environment["GATEHOUSE_DATABASE_URL"] ?? "", logger: logger)
        let server = try await ServerChild(environment: environment, directory: directory)
        defer { server.stop() }
        let port = server.port
        for index in 0..<poolSize {
            _ = try await HTTPConnection.with(port: port) {
                try await $0.send(
                    .POST,
                    "/signup",
                    json: #"{"email":"\#(poolEmail(index))","password":"pool password 1"}"#
                )
            }
        }
        let counter = RequestCounter()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(options.seconds)
        print(
            "\(database.name): soak for \(options.seconds) s, \(options.users) virtual users"
                + (options.rate > 0 ? " offering \(options.rate) requests/s" : "") + ", sweep every 10 s,"
                + " audit retention \(retentionDays) days (\(loadAverage()))"
        )
        print("  second | RSS MiB | database MiB | requests | failed")
        let pid = server.process.processIdentifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<options.users {
                group.addTask {
                    // Each user starts a cycle (eleven requests) every `period` when paced.
                    let period: Duration? =
                        options.rate > 0 ? .nanoseconds(Int64(11 * options.users) * 1_000_000_000 / Int64(options.rate)) : nil
                    try await HTTPConnection.with(port: port) { connection in
                        var next = clock.now
                        while clock.now < deadline {
                            try await cycle(connection, counter: counter)
                            if let period {
                                next = next.advanced(by: period)
                                if next > clock.now { try await Task.sleep(until: next, clock: clock) }
                            }
                        }
                    }
                }
            }
            group.addTask {
                let start = clock.now
                while clock.now < deadline {
                    try await Task.sleep(for: .seconds(options.sample))
                    let (requests, failures) = await counter.totals
                    let sample = Sample(
                        second: Int(seconds(clock.now - start)),
                        residentMiB: ServerChild.residentMiB(of: pid),
                        bytes: try await size.bytes(),
                        requests: requests
                    )
                    print(
                        String(
                            format: "  %6d | %7.1f | %12.1f | %8d | %d",
                            sample.second,
                            sample.residentMiB,
                            Double(sample.bytes) / 1_048_576,
                            sample.requests,
                            failures
                        )
                    )
                    await counter.append(sample)
                    // A line a minute: the figures the issue-32 target reads.
                    if sample.second / 60 > (sample.second - options.sample) / 60 {
                        print(
                            String(
                                format: "  minute %d: RSS %.1f MiB, database %.1f MiB, %d requests",
                                sample.second / 60,
                                sample.residentMiB,
                                Double(sample.bytes) / 1_048_576,
                                sample.requests
                            )
                        )
                    }
                }
            }
            try await group.waitForAll()
        }
        let samples = await counter.samples
        let (requests, failures) = await counter.totals
        let verdict = Verdict(samples: samples)
        print("  \(verdict.text)   (\(loadAverage()))")
        for failure in await counter.firstFailures { print("  failed: \(failure)") }
        report.add(
            database: database.name,
            figure: "soak \(options.seconds) s: requests (failed \(failures))",
            value: Double(requests),
            unit: ""
        )
        report.add(
            database: database.name,
            figure: "soak: RSS, reference → after it (max)",
            value: verdict.lastRSS,
            unit: String(format: "MiB (from %.1f)", verdict.middleRSS)
        )
        report.add(
            database: database.name,
            figure: "soak: database size, reference → after it (max)",
            value: verdict.lastBytes / 1_048_576,
            unit: String(format: "MiB (from %.1f); %@", verdict.middleBytes / 1_048_576, verdict.text)
        )
        return report
    }

    static func poolEmail(_ index: Int) -> String { "pool\(index)@example.com" }

    /// One account's life, eleven requests.
    static func cycle(_ connection: HTTPConnection, counter: RequestCounter) async throws {
        let email = "soak-\(UUID().uuidString.lowercased())@example.com"
        let credentials = #"{"email":"\#(email)","password":"soak password 1"}"#
        var failures: [String] = []
        func check(_ request: String, _ answer: HTTPConnection.Answer, _ expected: Int = 200) -> HTTPConnection.Answer {
            if answer.status != expected { failures.append("\(request): \(answer.status) \(answer.body.prefix(200))") }
            return answer
        }
        let signUp = check("POST /signup", try await connection.send(.POST, "/signup", json: credentials))
        let signIn = check(
            "POST /token password",
            try await connection.send(.POST, "/token?grant_type=password", json: credentials)
        )
        var refresh = signIn.field("refresh_token") ?? ""
        var access = signIn.field("access_token")
        for _ in 0..<2 {
            let answer = check(
                "POST /token refresh_token",
                try await connection.send(
                    .POST,
                    "/token?grant_type=refresh_token",
                    json: #"{"refresh_token":"\#(refresh)"}"#
                )
            )
            refresh = answer.field("refresh_token") ?? refresh
            access = answer.field("access_token") ?? access
        }
        for _ in 0..<3 { _ = check("GET /user", try await connection.send(.GET, "/user", bearer: access)) }
        let pool = poolEmail(Int.random(in: 0..<poolSize))
        _ = check(
            "POST /otp",
            try await connection.send(.POST, "/otp", json: #"{"email":"\#(pool)","create_user":false}"#)
        )
        _ = check("POST /logout", try await connection.send(.POST, "/logout?scope=local", bearer: access), 204)
        _ = check(
            "DELETE /user",
            try await connection.send(.DELETE, "/user", json: "{}", bearer: signUp.field("access_token"))
        )
        await counter.add(requests: 11, failures: failures)
    }

    /// Growth after the fifth minute against the fifth minute (issue 32's target: within 10 %
    /// for RSS and for the database's size); a run of six minutes or less is judged as before,
    /// its last third against its middle third (the first third warms up and fills the audit log
    /// to its retention).
    struct Verdict {
        var middleRSS = 0.0
        var lastRSS = 0.0
        var middleBytes = 0.0
        var lastBytes = 0.0
        var text = "too short to judge"

        static let reference = 300

        init(samples: [Sample]) {
            guard samples.count >= 6 else { return }
            let middle: ArraySlice<Sample>
            let last: ArraySlice<Sample>
            let limit: Double
            let span: String
            if let fifth = samples.firstIndex(where: { $0.second >= Self.reference }), fifth < samples.count - 1 {
                middle = samples[fifth...fifth]
                last = samples[(fifth + 1)...]
                limit = 0.10
                span = "after the fifth minute against the fifth minute"
            } else {
                let third = samples.count / 3
                middle = samples[third..<(2 * third)]
                last = samples[(2 * third)...]
                limit = 0.05
                span = "from the middle third to the last"
            }
            middleRSS = middle.map(\.residentMiB).max() ?? 0
            lastRSS = last.map(\.residentMiB).max() ?? 0
            middleBytes = Double(middle.map(\.bytes).max() ?? 0)
            lastBytes = Double(last.map(\.bytes).max() ?? 0)
            let rssGrowth = lastRSS / max(middleRSS, 1) - 1
            let sizeGrowth = lastBytes / max(middleBytes, 1) - 1
            let flat = rssGrowth < limit && sizeGrowth < limit
            text = String(
                format: "%@: RSS %+.1f %%, database %+.1f %% (highest) %@ (bound %.0f %%)",
                flat ? "FLAT" : "GROWING",
                rssGrowth * 100,
                sizeGrowth * 100,
                span,
                limit * 100
            )
        }
    }
}

/// Requests and failures of all virtual users, and the samples taken.
actor RequestCounter {
    private(set) var requests = 0
    private(set) var failures = 0
    /// The first few failed requests, as "request: status body", to print at the end.
    private(set) var firstFailures: [String] = []
    private(set) var samples: [SoakBench.Sample] = []

    var totals: (Int, Int) { (requests, failures) }

    func add(requests count: Int, failures failed: [String]) {
        requests += count
        failures += failed.count
        firstFailures += failed.prefix(max(0, 10 - firstFailures.count))
    }

    func append(_ sample: SoakBench.Sample) { samples.append(sample) }
}
