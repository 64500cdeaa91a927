import Foundation
import GatehouseCore
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The background sweep beyond sessions: expired codes and challenges, used nonces, closed
/// rate-limit windows and audit entries past their retention go; every live row stays.
@Suite("The sweep of expired rows and the audit retention")
struct StorageSweepTests {
    /// One row of every kind that is due, one beside it that is not.
    @Test func eachKindIsSweptAndLiveRowsAreKept() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let old = now.addingTimeInterval(-2 * 3600)
        let ada = UserRecord(email: "ada@example.com", createdAt: now, updatedAt: now)
        let bob = UserRecord(email: "bob@example.com", createdAt: now, updatedAt: now)
        // An unconfirmed sign-up whose password waits for its (expired) code: a resend carries
        // the password over only while the code row exists, so the sweep keeps it.
        let carol = UserRecord(email: "carol@example.com", passwordCode: "carol-link", createdAt: now, updatedAt: now)
        let factor = FactorRecord(
            userID: ada.id,
            friendlyName: "phone",
            sealedSecret: "sealed",
            createdAt: now,
            updatedAt: now
        )
        let liveChallenge = FactorChallengeRecord(
            factorID: factor.id,
            userID: ada.id,
            ip: "::1",
            createdAt: now,
            expiresAt: now.addingTimeInterval(300)
        )
        let deadChallenge = FactorChallengeRecord(
            factorID: factor.id,
            userID: ada.id,
            ip: "::1",
            createdAt: old,
            expiresAt: old.addingTimeInterval(300)
        )
        let livePasskeyChallenge = WebAuthnChallengeRecord(
            userID: nil,
            kind: .authentication,
            challenge: "live",
            createdAt: now,
            expiresAt: now.addingTimeInterval(300)
        )
        let deadPasskeyChallenge = WebAuthnChallengeRecord(
            userID: bob.id,
            kind: .registration,
            challenge: "dead",
            createdAt: old,
            expiresAt: old.addingTimeInterval(300)
        )
        let ended = now.addingTimeInterval(-400 * 86_400)
        let endedSession = SessionRecord(userID: bob.id, salt: "00", createdAt: ended, refreshedAt: now, amr: [])
        let liveSession = SessionRecord(userID: bob.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        try await harness.server.storage.transaction { tx in
            for user in [ada, bob, carol] { try await tx.insertUser(user) }
            try await tx.upsertCode(Self.code(ada.id, .recovery, "ada-link", expires: old))
            try await tx.upsertCode(Self.code(bob.id, .recovery, "bob-link", expires: now.addingTimeInterval(600)))
            try await tx.upsertCode(Self.code(carol.id, .signup, "carol-link", expires: old))
            // The live one first: a new nonce takes the expired ones with it.
            _ = try await tx.consumeNonce(provider: .apple, hash: "new", expiresAt: now, now: now)
            _ = try await tx.consumeNonce(
                provider: .apple,
                hash: "old",
                expiresAt: old,
                now: old.addingTimeInterval(-60)
            )
            try await tx.insertFactor(factor)
            // The live ones first: a new challenge takes its user's dead ones with it.
            try await tx.insertChallenge(liveChallenge)
            try await tx.insertChallenge(deadChallenge)
            try await tx.insertWebAuthnChallenge(livePasskeyChallenge)
            try await tx.insertWebAuthnChallenge(deadPasskeyChallenge)
            // A 5-minute window that closed a minute ago goes; a day-long window opened two
            // hours ago stays, though it opened long before the closed one.
            for (id, start, end) in [
                ("otp|closed", now.addingTimeInterval(-360), now.addingTimeInterval(-60)),
                ("password|open", now.addingTimeInterval(-7_200), now.addingTimeInterval(79_200)),
            ] {
                // Through the executor, not `query`: no test's own SQL joins `StatementLog`.
                _ = try await (tx as! SQLTransaction).executor.rows(
                    "INSERT INTO rate_limits (id, window_start, window_end, count) VALUES (?, ?, ?, 3)",
                    [.text(id), .date(start), .date(end)]
                )
            }
            for age in [91, 89] {
                try await tx.appendAudit(
                    AuditEntry(
                        at: now.addingTimeInterval(Double(-age) * 86_400),
                        action: AuditAction(rawValue: "age \(age)"),
                        actorID: nil
                    )
                )
            }
            try await tx.insertSession(endedSession)
            try await tx.insertSession(liveSession)
            // A sign-in through a provider's page that expired, and one still under way.
            for (state, expires) in [("expired-flow", old), ("live-flow", now.addingTimeInterval(600))] {
                try await tx.insertFlowState(
                    FlowStateRecord(
                        stateHash: Hex.sha256(state),
                        provider: AuthProvider(rawValue: "github"),
                        authenticationMethod: .oauth,
                        redirectTo: "https://app.example.com",
                        createdAt: expires.addingTimeInterval(-600),
                        expiresAt: expires
                    )
                )
            }
        }
        let before = try await Self.rowCounts(harness)

        let swept = try await harness.server.sweep()
        for kind in SweptRows.allCases {
            #expect(swept[kind] == 1, "\(kind.rawValue): \(swept[kind] ?? -1)")
        }
        let after = try await Self.rowCounts(harness)
        for (table, count) in before {
            #expect(after[table] == count - 1, "\(table): \(count) before, \(after[table] ?? -1) after")
        }
        let kept = try await harness.server.storage.read { reader in
            [
                try await reader.code(userID: bob.id, purpose: .recovery) != nil,
                try await reader.code(userID: carol.id, purpose: .signup) != nil,
                try await reader.code(userID: ada.id, purpose: .recovery) == nil,
                try await reader.challenge(id: liveChallenge.id, factorID: factor.id) != nil,
                try await reader.challenge(id: deadChallenge.id, factorID: factor.id) == nil,
                try await reader.session(id: liveSession.id) != nil,
                try await reader.auditEntries(limit: 10).map(\.action.rawValue) == ["age 89"],
            ]
        }
        #expect(kept == Array(repeating: true, count: 7), "\(kept)")
        let windows = try await harness.server.storage.read { reader in
            try await (reader as! SQLTransaction).executor.rows("SELECT id FROM rate_limits", [])
                .compactMap { $0.column("id") }
        }
        #expect(windows == [.text("password|open")], "the open window stays: \(windows)")
        let (replayed, consumed) = try await harness.server.storage.transaction { tx in
            // The used nonce that is still live stays used: its replay is refused.
            (
                try await tx.consumeNonce(provider: .apple, hash: "new", expiresAt: now, now: now),
                try await tx.consumeWebAuthnChallenge(id: livePasskeyChallenge.id, kind: .authentication, userID: nil)
            )
        }
        #expect(!replayed)
        #expect(consumed != nil)
        #expect(try await harness.server.sweep().values.allSatisfy { $0 == 0 })
        try await harness.server.storage.close()
    }

    /// PostgreSQL keeps rate-limit windows in a table shared by every instance: a window the
    /// limiter opened is swept once it closes, whatever its length, and not before.
    @Test(.enabled(if: TestDatabase.isPostgres, "rate-limit windows live in PostgreSQL only"))
    func aRateLimitWindowIsSweptWhenItClosesNotADayAfterItOpened() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let postgres = try #require(harness.server.storage as? PostgresStorage)
        let limiter = postgres.rateLimiter
        let opened = harness.clock.now().addingTimeInterval(-400)
        try await limiter.hit(.otp, key: "198.51.100.7", limit: 30, window: 300, now: opened)
        try await limiter.hit(.failedPassword, key: "ada@example.com", limit: 5, window: 86_400, now: opened)
        #expect(try await harness.server.sweep([.closedRateLimitWindows]) == [.closedRateLimitWindows: 1])
        // The day-long window is still open and still counts.
        let retry = try await limiter.isLimited(
            .failedPassword,
            key: "ada@example.com",
            limit: 1,
            window: 86_400,
            now: harness.clock.now()
        )
        #expect(retry != nil)
        #expect(try await harness.server.sweep([.closedRateLimitWindows]) == [.closedRateLimitWindows: 0])
        try await harness.server.storage.close()
    }

    @Test func auditRetentionIsConfigurableAndSweptInBoundedBatches() async throws {
        let harness = try await Harness.make { $0.auditRetention = 10 * 86_400 }
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        try await harness.server.storage.transaction { tx in
            for index in 0..<1_234 {
                try await tx.appendAudit(
                    AuditEntry(
                        at: now.addingTimeInterval(-11 * 86_400),
                        action: AuditAction(rawValue: "old \(index)"),
                        actorID: nil
                    )
                )
            }
            try await tx.appendAudit(
                AuditEntry(at: now.addingTimeInterval(-9 * 86_400), action: AuditAction(rawValue: "kept"), actorID: nil)
            )
        }
        let swept = try await harness.server.sweep([.oldAuditEntries])
        #expect(swept[.oldAuditEntries] == 1_234)
        #expect(
            try await harness.server.storage.read { try await $0.auditEntries(limit: 10) }.map(\.action.rawValue) == [
                "kept"
            ]
        )
        try await harness.server.storage.close()
    }

    @Test func auditEntriesKeptForeverAreNeverSwept() async throws {
        let harness = try await Harness.make { $0.auditRetention = nil }
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        try await harness.server.storage.transaction { tx in
            try await tx.appendAudit(
                AuditEntry(
                    at: now.addingTimeInterval(-4_000 * 86_400),
                    action: AuditAction(rawValue: "ancient"),
                    actorID: nil
                )
            )
        }
        #expect(try await harness.server.sweep()[.oldAuditEntries] == 0)
        #expect(try await harness.server.storage.read { try await $0.auditEntries(limit: 10) }.count == 1)
        try await harness.server.storage.close()
    }

    @Test func theRetentionIsReadFromTheEnvironment() throws {
        #expect(try ServerConfiguration(environment: [:]).auditRetention == 90 * 86_400)
        let days = try ServerConfiguration(environment: ["GATEHOUSE_AUDIT_RETENTION_DAYS": "30"])
        #expect(days.auditRetention == 2_592_000.0)
        let hours = try ServerConfiguration(environment: ["GATEHOUSE_AUDIT_RETENTION_DAYS": "0.5"])
        #expect(hours.auditRetention == 43_200.0)
        let forever = try ServerConfiguration(environment: ["GATEHOUSE_AUDIT_RETENTION_DAYS": "Forever"])
        #expect(forever.auditRetention == nil)
        for bad in ["0", "0.0", "-1", "ninety", "36501", "nan", "inf"] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServerConfiguration(environment: ["GATEHOUSE_AUDIT_RETENTION_DAYS": bad])
            }
            #expect(error?.variable == "GATEHOUSE_AUDIT_RETENTION_DAYS")
            #expect(error?.description.contains("forever") == true, "\(error?.description ?? "")")
        }
    }

    /// The server refuses to start on a retention it cannot read, naming the variable.
    @Test func aBadRetentionStopsTheServerAtStart() async throws {
        let process = ChildProcess()
        process.executableURL = ServerProcess.builtBinary
        var environment = ProcessInfo.processInfo.environment
        environment["GATEHOUSE_AUDIT_RETENTION_DAYS"] = "0"
        environment["GATEHOUSE_DATABASE_URL"] = ":memory:"
        environment["GATEHOUSE_PORT"] = "0"
        process.environment = environment
        let finished = try await process.runToEnd(timeout: .seconds(60))
        let text = finished.output + finished.errors
        #expect(finished.status != 0)
        #expect(text.contains("GATEHOUSE_AUDIT_RETENTION_DAYS must be a number of days above 0"), "\(text)")
    }

    static func code(_ userID: UUID, _ purpose: CodePurpose, _ link: String, expires: Date) -> CodeRecord {
        CodeRecord(
            userID: userID,
            purpose: purpose,
            codeHash: "hash",
            linkHash: link,
            email: "someone@example.com",
            expiresAt: expires,
            attempts: 0,
            createdAt: expires.addingTimeInterval(-600)
        )
    }

    static let sweptTables = [
        "one_time_codes", "used_nonces", "mfa_challenges", "webauthn_challenges", "rate_limits", "audit_log",
        "sessions", "flow_states",
    ]

    static func rowCounts(_ harness: Harness) async throws -> [String: Int] {
        try await harness.server.storage.read { reader in
            var counts: [String: Int] = [:]
            for table in sweptTables {
                counts[table] = try await (reader as! SQLTransaction).executor
                    .rows("SELECT COUNT(*) AS n FROM \(table)", [])
                    .first?.column("n")?.integer
            }
            return counts
        }
    }
}
