import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import NIOCore
import PostgresNIO
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Every statement the storage runs on the request paths reads its rows through an index: the
/// statements are collected while a script of flows runs (sign-up, sign-in, refresh, `GET
/// /user`, codes, MFA, passkeys, the admin API, logout, account deletion) and every storage call
/// is made once, then each is planned by the database (SQLite: `EXPLAIN QUERY PLAN`;
/// PostgreSQL: `EXPLAIN` of its generic plan with sequential scans off, so an index is taken
/// wherever one can serve) and a scan of a whole table that grows with users fails the test.
@Suite("Statements read by index")
struct StatementPlanTests {
    /// Tables that stay small whatever the number of users.
    static let smallTables: Set<String> = ["signing_keys", "schema_migrations", "user_counts", "operators"]

    /// Statements (told by a part of their text) that read a whole table on purpose, each with
    /// its reason.
    static let wholeTableReads: [String: String] = [
        "SELECT COUNT(*) AS count FROM sessions": "the active-sessions gauge of /metrics, sampled off the request path",
        "FROM audit_log ORDER BY id DESC LIMIT ?": "the newest audit entries, walked from the end of the key",
        "SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM mail_outbox":
            "the mail outbox's gauges of /metrics, sampled off the request path; the outbox holds undelivered mail only",
        "SELECT created_at, id FROM users ORDER BY created_at, id LIMIT 1 OFFSET ?":
            "the first key of an admin page, walked in the users_created_at index alone (a covering index, an"
            + " index-only scan: no row of the table is read; AdminUserListTests checks both plans)",
    ]

    static func readsWholeTableOnPurpose(_ sql: String) -> Bool {
        wholeTableReads.keys.contains { sql.contains($0) }
    }

    @Test func everyStatementOfTheRequestPathsUsesAnIndex() async throws {
        let harness = try await Harness.make { PasskeyTests.enabled(&$0) }
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        let dialect: SQLDialect = if case .postgres = harness.configuration.database { .postgres } else { .sqlite }
        let statements = try await StatementLog.recording(dialect) {
            try await Self.callEveryStorageMethod(harness.server.storage, now: harness.clock.now())
            try await harness.server.sweep()
            try await Self.runFlows(harness, admin: admin)  // closes the storage when done
        }
        // The script reaches far enough to matter: far more statements than a sign-in makes.
        #expect(statements.count > 60, "only \(statements.count) statements")
        let scans =
            switch harness.configuration.database {
            case .postgres(let settings): try await Self.postgresScans(statements, settings: settings)
            default: try await Self.sqliteScans(statements, database: harness.configuration.database)
            }
        for (sql, plan) in scans.sorted(by: { $0.key < $1.key }) {
            Issue.record("A whole-table read:\n\(sql)\nplan:\n\(plan)")
        }
    }

    /// A user's deletion cascades through every foreign key, and neither database shows the
    /// cascade in a plan: each referencing column leads an index of its own.
    @Test func everyForeignKeyLeadsAnIndex() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-fk-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("schema.sqlite").path
        let storage = try await SQLiteStorage.open(.sqliteFile(path), logger: TestDatabase.logger)
        try await storage.migrate()
        try await storage.close()
        let handle = try SQLiteHandle(path: path)
        defer { handle.close() }
        let tables = try handle.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
            $0.column("name")?.string
        }
        var keys = 0
        for table in tables {
            let leading = try handle.rows("PRAGMA index_list(\(table))").compactMap { $0.column("name")?.string }
                .compactMap { index in
                    try handle.rows("PRAGMA index_info(\(index))").first { $0.column("seqno")?.integer == 0 }?
                        .column("name")?.string
                }
            for key in try handle.rows("PRAGMA foreign_key_list(\(table))").compactMap({ $0.column("from")?.string }) {
                keys += 1
                #expect(leading.contains(key), "\(table).\(key) references another table but leads no index")
            }
        }
        #expect(keys >= 8)
    }

    // MARK: - The script

    static func runFlows(_ harness: Harness, admin: String) async throws {
        try await harness.live { client in
            let email = "ada@example.com"
            let session = try await client.confirmedSession(email: email)
            #expect(session.status == .ok, "\(session.text)")
            var access = try #require(session.string("access_token"))
            let userID = try #require(session.user["id"] as? String)
            #expect(try await client.signIn(email).status == .ok)
            let refreshed = try await client.refresh(try #require(session.string("refresh_token")))
            #expect(refreshed.status == .ok)
            access = try #require(refreshed.string("access_token"))
            #expect(try await client.get("/user", bearer: access).status == .ok)
            _ = try await client.send(.put, "/user", json: #"{"data":{"plan":"pro"}}"#, bearer: access)
            let sessions = try await client.get("/user/sessions", bearer: access)
            #expect(sessions.status == .ok)
            // Codes: a magic code, a recovery, a resend, a reauthentication, a wrong guess.
            let mails = await client.mailCount(to: email)
            _ = try await client.post("/otp", #"{"email":"\#(email)","create_user":false}"#)
            let code = try await client.waitForCode(to: email, after: mails)
            let viaCode = try await client.post("/verify", #"{"type":"email","email":"\#(email)","token":"\#(code)"}"#)
            #expect(viaCode.status == .ok, "\(viaCode.text)")
            _ = try await client.post("/verify", #"{"type":"email","email":"\#(email)","token":"000000"}"#)
            _ = try await client.post("/recover", #"{"email":"\#(email)"}"#)
            _ = try await client.post("/signup", #"{"email":"eve@example.com","password":"correct horse battery"}"#)
            _ = try await client.post("/resend", #"{"type":"signup","email":"eve@example.com"}"#)
            _ = try await client.get("/reauthenticate", bearer: access)
            _ = try await client.send(.put, "/user", json: #"{"email":"ada2@example.com"}"#, bearer: access)
            // A guest, and its refresh.
            let guest = try await client.post("/signup", "{}")
            #expect(guest.status == .ok)
            _ = try await client.refresh(guest.string("refresh_token") ?? "")
            // MFA: enrol, challenge, verify, unenrol.
            let (aal2, factor) = try await client.userWithFactor("mfa@example.com", clock: harness.clock)
            #expect(aal2.status == .ok, "\(aal2.text)")
            let aal2Token = aal2.string("access_token")
            _ = try await client.refresh(aal2.string("refresh_token") ?? "")
            _ = try await client.challenge(factor.id, bearer: aal2Token)
            _ = try await client.send(.delete, "/factors/\(factor.id)", bearer: aal2Token)
            // Passkeys: the options of both ceremonies, a refused answer, the list.
            let options = try await client.post("/passkeys/authentication/options", "{}")
            #expect(options.status == .ok, "\(options.text)")
            _ = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(options.string("challenge_id") ?? "")","credential":{}}"#
            )
            _ = try await client.post("/passkeys/registration/options", "{}", bearer: guest.string("access_token"))
            _ = try await client.get("/passkeys", bearer: access)
            // The admin API.
            #expect(try await client.get("/admin/users?page=2&per_page=2", bearer: admin).status == .ok)
            #expect(try await client.get("/admin/users/\(userID)", bearer: admin).status == .ok)
            let created = try await client.post(
                "/admin/users",
                #"{"email":"new@example.com","password":"correct horse battery","email_confirm":true}"#,
                bearer: admin
            )
            let createdID = created.string("id") ?? ""
            _ = try await client.send(.put, "/admin/users/\(createdID)", json: #"{"ban_duration":"1h"}"#, bearer: admin)
            _ = try await client.get("/admin/users/\(userID)/sessions", bearer: admin)
            _ = try await client.get("/admin/users/\(userID)/factors", bearer: admin)
            _ = try await client.get("/admin/users/\(userID)/passkeys", bearer: admin)
            _ = try await client.post(
                "/admin/generate_link",
                #"{"type":"magiclink","email":"\#(email)"}"#,
                bearer: admin
            )
            _ = try await client.send(.delete, "/admin/users/\(createdID)", bearer: admin)
            // Ending sessions: one by id, then every one.
            let other = try await client.signIn(email)
            if let id =
                (DeviceSessionTests.sessions(try await client.get("/user/sessions", bearer: access))
                    .first { $0["current"] as? Bool == false }?["id"] as? String)
            {
                _ = try await client.send(.delete, "/user/sessions/\(id)", bearer: access)
            }
            #expect(other.status == .ok)
            _ = try await client.post("/logout?scope=others", bearer: access)
            #expect(try await client.post("/logout", bearer: access).status == .noContent)
            _ = try await client.send(.delete, "/user", json: "{}", bearer: guest.string("access_token"))
        }
    }

    /// Every storage call once, with rows that exist where it matters.
    static func callEveryStorageMethod(_ storage: any AuthStorage, now: Date) async throws {
        let user = UserRecord(email: "calls@example.com", createdAt: now, updatedAt: now)
        let session = SessionRecord(userID: user.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        let factor = FactorRecord(
            userID: user.id,
            friendlyName: "app",
            sealedSecret: "s",
            createdAt: now,
            updatedAt: now
        )
        let challenge = FactorChallengeRecord(
            factorID: factor.id,
            userID: user.id,
            ip: "::1",
            createdAt: now,
            expiresAt: now.addingTimeInterval(300)
        )
        let code = StorageSweepTests.code(user.id, .recovery, "calls-link", expires: now.addingTimeInterval(600))
        let identity = IdentityRecord(
            userID: user.id,
            provider: .apple,
            subject: "calls",
            email: nil,
            data: [:],
            lastSignInAt: now,
            createdAt: now,
            updatedAt: now
        )
        let passkey = PasskeyRecord(
            userID: user.id,
            credentialID: "calls-credential",
            publicKey: "key",
            algorithm: -7,
            attestationType: "none",
            aaguid: "",
            signCount: 0,
            transports: [],
            backupEligible: false,
            backedUp: false,
            friendlyName: "key",
            createdAt: now,
            updatedAt: now
        )
        let webAuthn = WebAuthnChallengeRecord(
            userID: user.id,
            kind: .registration,
            challenge: "c",
            createdAt: now,
            expiresAt: now.addingTimeInterval(300)
        )
        try await storage.transaction { tx in
            try await tx.insertUser(user)
            try await tx.updateUser(user)
            try await tx.insertSession(session)
            _ = try await tx.rotateSession(
                id: session.id,
                expectedCounter: 0,
                at: now,
                from: "::1",
                audit: AuditEntry(at: now, action: .tokenRefreshed, actorID: user.id, ip: "::1")
            )
            try await tx.lockFactors(userID: user.id)
            try await tx.insertFactor(factor)
            try await tx.markFactorVerified(id: factor.id, at: now)
            _ = try await tx.recordFactorStep(id: factor.id, step: 1)
            try await tx.insertChallenge(challenge)
            _ = try await tx.countChallengeAttempt(id: challenge.id, below: 5)
            _ = try await tx.deleteChallenge(id: challenge.id)
            _ = try await tx.elevateSession(id: session.id, factorID: factor.id, amr: [], at: now)
            try await tx.addSessionMethod(AMREntry(method: .passkey, timestamp: 0), sessionID: session.id)
            try await tx.downgradeSessions(factorID: factor.id)
            try await tx.deleteUnverifiedFactors(userID: user.id, createdBefore: now)
            _ = try await tx.deleteFactor(id: factor.id, userID: user.id)
            try await tx.upsertCode(code)
            _ = try await tx.countCodeAttempt(userID: user.id, purpose: .recovery, below: 5)
            try await tx.deleteCode(userID: user.id, purpose: .recovery)
            try await tx.insertIdentity(identity)
            try await tx.updateIdentity(identity)
            _ = try await tx.deleteIdentity(id: identity.id, userID: user.id)
            _ = try await tx.consumeNonce(provider: .apple, hash: "calls", expiresAt: now, now: now)
            try await tx.insertPasskey(passkey)
            try await tx.updatePasskey(passkey)
            _ = try await tx.deletePasskey(id: passkey.id, userID: user.id)
            try await tx.insertWebAuthnChallenge(webAuthn)
            _ = try await tx.consumeWebAuthnChallenge(id: webAuthn.id, kind: .registration, userID: user.id)
            _ = try await tx.consumeWebAuthnChallenge(id: webAuthn.id, kind: .authentication, userID: nil)
            try await tx.revokeToken(jti: "calls", at: now)
            try await tx.appendAudit(AuditEntry(at: now, action: AuditAction(rawValue: "calls")))
            // The console's (issue 37).
            _ = try await tx.insertOperator(userID: user.id, at: now)
            try await tx.insertConsoleSession(
                ConsoleSessionRecord(
                    tokenHash: "calls",
                    sessionID: session.id,
                    userID: user.id,
                    createdAt: now,
                    lastSeenAt: now
                )
            )
            try await tx.touchConsoleSession(tokenHash: "calls", at: now)
            _ = try await tx.deleteConsoleSession(tokenHash: "calls")
            _ = try await tx.deleteOperator(userID: user.id)
            _ = try await tx.deleteSessionsBelowAAL2(userID: user.id, except: session.id)
            _ = try await tx.deleteSession(id: session.id, userID: user.id)
            try await tx.deleteSession(id: session.id)
            _ = try await tx.deleteSessions(userID: user.id, except: nil)
            try await tx.deleteUser(id: user.id)
        }
        try await storage.read { reader in
            _ = try await reader.user(id: user.id)
            _ = try await reader.user(email: "calls@example.com")
            _ = try await reader.listUsers(offset: 0, limit: 10)
            _ = try await reader.session(id: session.id)
            _ = try await reader.sessionWithUser(id: session.id)
            _ = try await reader.sessions(userID: user.id, createdAfter: now, refreshedAfter: now, limit: 10)
            _ = try await reader.factor(id: factor.id, userID: user.id)
            _ = try await reader.challenge(id: challenge.id, factorID: factor.id)
            _ = try await reader.code(userID: user.id, purpose: .recovery)
            _ = try await reader.code(linkHash: "calls-link")
            _ = try await reader.codes(purpose: .emailChange, email: "calls@example.com")
            _ = try await reader.identity(provider: .apple, subject: "calls")
            _ = try await reader.isTokenRevoked(jti: "calls")
            _ = try await reader.auditEntries(limit: 10)
            _ = try await reader.passkeys(userID: user.id)
            _ = try await reader.passkey(credentialID: "calls-credential")
            _ = try await reader.isOperator(userID: user.id)
            _ = try await reader.hasOperators()
            _ = try await reader.operators()
            _ = try await reader.consoleSession(tokenHash: "calls")
            _ = try await reader.users(emailPrefix: "call", limit: 10)
            _ = try await reader.dailyCounts(of: [.login, .loginFailed], since: now)
            for query in [
                AuditQuery(), AuditQuery(before: 10), AuditQuery(user: user.id), AuditQuery(action: .login),
                AuditQuery(user: user.id, action: .login, before: 10), AuditQuery(from: now, until: now),
            ] {
                _ = try await reader.auditEntries(matching: query)
            }
        }
    }

    // MARK: - SQLite

    /// The statements whose SQLite plan scans a whole table that grows, with their plans.
    static func sqliteScans(
        _ statements: Set<String>,
        database: ServerConfiguration.Database
    ) async throws -> [String: String] {
        guard case .sqliteFile(let path) = database else { return [:] }
        let handle = try SQLiteHandle(path: path)
        defer { handle.close() }
        let small = smallTables.union(["CONSTANT"])
        var scans: [String: String] = [:]
        for sql in statements where !readsWholeTableOnPurpose(sql) && isPlanned(sql) {
            let plan = try handle.rows("EXPLAIN QUERY PLAN " + sql).map { $0.column("detail")?.string ?? "" }
            // `SCAN t` reads every row of t (through an index or not); `SEARCH t` looks rows up.
            // A subquery's own rows (`CO-ROUTINE f`, `MATERIALIZE f`) are scanned as `SCAN f`.
            let subqueries = Set(
                plan.compactMap { line -> String? in
                    guard line.hasPrefix("CO-ROUTINE ") || line.hasPrefix("MATERIALIZE ") else { return nil }
                    return line.split(separator: " ").dropFirst().first.map(String.init)
                }
            )
            let whole = plan.filter { line in
                guard line.hasPrefix("SCAN ") else { return false }
                // `SCAN 500-ROW VALUES CLAUSE`: the statement's own list of keys, not a table.
                if line.hasSuffix("VALUES CLAUSE") { return false }
                let table = line.dropFirst(5).split(separator: " ").first.map(String.init) ?? ""
                return !small.contains(table) && !subqueries.contains(table)
            }
            if !whole.isEmpty { scans[sql] = plan.joined(separator: "\n") }
        }
        return scans
    }

    /// Statements with a plan: not pragmas, transactions or locks.
    static func isPlanned(_ sql: String) -> Bool {
        let head = sql.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE"].contains { head.hasPrefix($0) }
            && !head.contains("PG_ADVISORY") && !head.contains("PG_TRY_ADVISORY")
    }

    // MARK: - PostgreSQL

    /// The statements whose PostgreSQL generic plan, with sequential scans off, still reads a
    /// whole table that grows (a sequential scan, or an index scan with no condition), with
    /// their plans.
    static func postgresScans(_ statements: Set<String>, settings: PostgresSettings) async throws -> [String: String] {
        var scans: [String: String] = [:]
        try await TestDatabase.withConnection(settings) { connection in
            let logger = TestDatabase.logger
            for setting in ["SET enable_seqscan = off", "SET plan_cache_mode = force_generic_plan"] {
                try await connection.query(PostgresQuery(unsafeSQL: setting), logger: logger)
            }
            for (index, sql) in statements.sorted().enumerated() where !readsWholeTableOnPurpose(sql) && isPlanned(sql)
            {
                let numbered = PostgresStatement.numberedPlaceholders(sql)
                let parameters = sql.filter { $0 == "?" }.count
                do {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "PREPARE plan_\(index) AS \(numbered)"),
                        logger: logger
                    )
                } catch {
                    scans[sql] = "cannot be prepared: \(String(reflecting: error))"
                    continue
                }
                let nulls = Array(repeating: "NULL", count: parameters).joined(separator: ", ")
                let explain = "EXPLAIN (FORMAT JSON) EXECUTE plan_\(index)" + (parameters > 0 ? "(\(nulls))" : "")
                var text = ""
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: explain), logger: logger) {
                    for cell in row { text += cell.bytes.map { String(buffer: $0) } ?? "" }
                }
                try await connection.query(PostgresQuery(unsafeSQL: "DEALLOCATE plan_\(index)"), logger: logger)
                let plans = (try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
                let whole = plans.compactMap { $0["Plan"] as? [String: Any] }.flatMap(wholeTableScans)
                if !whole.isEmpty { scans[sql] = whole.joined(separator: "\n") + "\n" + text }
            }
            for setting in ["RESET enable_seqscan", "RESET plan_cache_mode"] {
                try await connection.query(PostgresQuery(unsafeSQL: setting), logger: logger)
            }
        }
        return scans
    }

    /// The nodes of a plan that read a whole table: a sequential scan, or an index scan with no
    /// index condition (every entry of the index).
    static func wholeTableScans(_ node: [String: Any]) -> [String] {
        var found: [String] = []
        let type = node["Node Type"] as? String ?? ""
        let relation = node["Relation Name"] as? String ?? ""
        if !relation.isEmpty, !smallTables.contains(relation) {
            if type == "Seq Scan" {
                found.append("Seq Scan on \(relation)")
            } else if type == "Index Scan" || type == "Index Only Scan", node["Index Cond"] == nil {
                found.append("\(type) on \(relation) with no index condition")
            }
        }
        for child in node["Plans"] as? [[String: Any]] ?? [] { found += wholeTableScans(child) }
        return found
    }
}
