import Foundation
import GatehouseProcessTesting
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import Testing

/// Two server processes on one PostgreSQL database (issue 6): refresh rotation agrees across
/// instances, sign-out is seen by both at once, and a SIGKILL loses nothing committed.
@Suite(
    "Several instances on one PostgreSQL database",
    .serialized,
    .enabled(if: TestDatabase.isPostgres, "set GATEHOUSE_TEST_POSTGRES_URL (scripts/test does)")
)
struct MultiInstanceTests {
    let http = HTTPClient()

    /// Two instances started at the same moment on a fresh database (migrations and the first
    /// signing key are created once, under locks).
    static func twoInstances() async throws -> (ServerProcess, ServerProcess, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-multi-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard case .postgres(let settings) = try await TestDatabase.database(for: directory) else {
            throw ServerProcessError.didNotStart("not PostgreSQL")
        }
        let environment = [
            "GATEHOUSE_DATABASE_URL":
                "postgres://\(settings.username)@\(settings.host):\(settings.port)/\(settings.database)?sslmode=disable",
            "GATEHOUSE_DATABASE_POOL_SIZE": "8",
            "GATEHOUSE_SERVER_SECRET": "multi-instance-secret-\(directory.lastPathComponent)",
            "GATEHOUSE_BCRYPT_COST": "4",
            "GATEHOUSE_MAILER_AUTOCONFIRM": "true",
            "GATEHOUSE_RATE_LIMIT_TOKEN": "1000000",
            "GATEHOUSE_RATE_LIMIT_OTP": "1000000",
            "GATEHOUSE_RATE_LIMIT_VERIFY": "1000000",
            "GATEHOUSE_RATE_LIMIT_ANONYMOUS": "1000000",
        ]
        async let first = ServerProcess(environment: environment, logDirectory: directory)
        async let second = ServerProcess(environment: environment, logDirectory: directory)
        return (try await first, try await second, directory)
    }

    func signUp(_ email: String, on server: ServerProcess) async -> HTTPClient.Answer {
        await http.send(
            "POST",
            server.url.appendingPathComponent("signup"),
            json: #"{"email":"\#(email)","password":"correct horse battery"}"#
        )
    }

    func refresh(_ token: String, on server: ServerProcess) async -> HTTPClient.Answer {
        await http.send(
            "POST",
            URL(string: "\(server.url)/token?grant_type=refresh_token")!,
            json: #"{"refresh_token":"\#(token)"}"#
        )
    }

    @Test func concurrentRefreshesThroughBothInstancesAgreeAndSignOutIsSeenAtOnce() async throws {
        let (a, b, directory) = try await Self.twoInstances()
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = [a, b]
        var tokens: [String] = []
        for index in 0..<12 {
            let session = await signUp("user\(index)@example.com", on: servers[index % 2])
            #expect(session.status == 200)
            tokens.append(try #require(session.string("refresh_token")))
        }
        // Rounds: every token refreshed 8 times at once, alternately through A and B.
        for round in 0..<4 {
            let answers = await withTaskGroup(of: (Int, HTTPClient.Answer).self) { group in
                for (user, token) in tokens.enumerated() {
                    for attempt in 0..<8 {
                        group.addTask { (user, await refresh(token, on: servers[(attempt + round) % 2])) }
                    }
                }
                var answers: [(Int, HTTPClient.Answer)] = []
                for await answer in group { answers.append(answer) }
                return answers
            }
            #expect(answers.allSatisfy { $0.1.status < 500 && $0.1.status != 0 }, "no 5xx, no dropped request")
            for user in tokens.indices {
                let children = Set(
                    answers.filter { $0.0 == user && $0.1.status == 200 }.compactMap {
                        $0.1.string("refresh_token")
                    }
                )
                #expect(children.count == 1, "round \(round), user \(user): one child, never two")
                #expect(answers.filter { $0.0 == user }.allSatisfy { $0.1.status == 200 }, "no family revoked")
                if let child = children.first { tokens[user] = child }
            }
        }
        // Every family is alive: the last child refreshes on either instance.
        let last = await refresh(tokens[0], on: b)
        #expect(last.status == 200)
        // Sign-out through A is honoured by B at once.
        let access = try #require(last.string("access_token"))
        let logout = await http.send("POST", URL(string: "\(a.url)/logout?scope=global")!, bearer: access)
        #expect(logout.status == 204)
        let me = await http.send("GET", b.url.appendingPathComponent("user"), bearer: access)
        #expect(me.status == 403)
        #expect(me.json["error_code"] as? String == "session_not_found")
        #expect(await refresh(try #require(last.string("refresh_token")), on: b).status == 400)
        await a.kill()
        await b.kill()
    }

    @Test func aKilledInstanceLosesNothingCommittedAndTheOtherKeepsServing() async throws {
        let (a, b, directory) = try await Self.twoInstances()
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = [a, b]
        /// Sign-ups that answered 200 (email → refresh token last seen for it).
        let committed = Committed()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        for step in 0..<30 {
                            let server = servers[(worker + step) % 2]
                            let email = "w\(worker)-s\(step)@example.com"
                            let session = await signUp(email, on: server)
                            guard session.status == 200, let token = session.string("refresh_token") else {
                                if server === b { committed.failOnSurvivor(session.status) }
                                continue
                            }
                            committed.record(email, token)
                            let refreshed = await refresh(token, on: servers[(worker + step + 1) % 2])
                            if refreshed.status == 200, let child = refreshed.string("refresh_token") {
                                committed.record(email, child)
                            } else if servers[(worker + step + 1) % 2] === b {
                                committed.failOnSurvivor(refreshed.status)
                            }
                        }
                    }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(400))
        await a.kill()
        await load.value
        #expect(committed.survivorFailures.isEmpty, "B answered every request: \(committed.survivorFailures)")
        let sessions = committed.sessions
        #expect(sessions.count > 50, "the load ran (\(sessions.count) sign-ups)")
        // Every answered sign-up and refresh is still there, through the survivor.
        for (email, token) in sessions {
            let signIn = await http.send(
                "POST",
                URL(string: "\(b.url)/token?grant_type=password")!,
                json: #"{"email":"\#(email)","password":"correct horse battery"}"#
            )
            #expect(signIn.status == 200, "\(email) was committed")
            #expect(await refresh(token, on: b).status == 200, "\(email)'s latest refresh token works")
        }
        await b.kill()
    }

    /// What the load saw, shared by its workers.
    final class Committed: @unchecked Sendable {
        private let lock = NSLock()
        private var latest: [String: String] = [:]
        private var failures: [Int] = []

        func record(_ email: String, _ token: String) { lock.withLock { latest[email] = token } }
        func failOnSurvivor(_ status: Int) { lock.withLock { failures.append(status) } }
        var sessions: [String: String] { lock.withLock { latest } }
        var survivorFailures: [Int] { lock.withLock { failures } }
    }
}
