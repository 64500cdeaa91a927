import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import PostgresNIO
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `GET /admin/users?page=&per_page=` without reading the users table beyond the page (issue
/// 35): the page's first key found in the `users_created_at` index, the page read from it, and
/// the total kept by triggers in `user_counts`. Every page, and the total, equal what the
/// statements before gave (`ORDER BY created_at, id LIMIT ? OFFSET ?` and `COUNT(*)`), on users
/// that share creation times.
@Suite("Admin user list")
struct AdminUserListTests {
    /// The page and total the statements before this change gave (run on the executor, not
    /// through ``SQLTransaction/query(_:_:)``, so that `StatementPlanTests`, which records what
    /// the storage runs in the whole process, does not plan them).
    static func before(_ tx: SQLTransaction, offset: Int, limit: Int) async throws -> ([UUID], Int) {
        let users = try await tx.executor.rows(
            "\(tx.userSelect) ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.integer(limit), .integer(offset)]
        ).map { try tx.user(from: $0).id }
        let counted = try await tx.executor.rows("SELECT COUNT(*) AS total FROM users", [])
        return (users, counted.first?.column("total")?.integer ?? -1)
    }

    @Test func everyPageAndTheTotalEqualThoseOfTheStatementsBefore() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        // 23 users over 9 creation times, up to four sharing one, so that ties go by id.
        let base = harness.clock.now()
        for index in 0..<23 {
            let created = base.addingTimeInterval(TimeInterval((index * 5) % 9))
            let user = UserRecord(email: "user\(index)@example.com", createdAt: created, updatedAt: created)
            try await storage.transaction { try await $0.insertUser(user) }
        }
        // A deletion moves the total down (the trigger's other half).
        let victim = try #require(try await storage.read { try await $0.user(email: "user7@example.com") })
        try await storage.transaction { try await $0.deleteUser(id: victim.id) }
        for perPage in [1, 2, 3, 7, 22, 50] {
            for page in 1...(22 / perPage + 2) {
                let paging = AdminPaging(page: page, perPage: perPage)
                let (now, expected) = try await storage.transaction { tx in
                    let sql = try #require(tx as? SQLTransaction)
                    let (users, total) = try await sql.listUsers(offset: paging.offset, limit: paging.perPage)
                    return ((users.map(\.id), total), try await Self.before(sql, offset: paging.offset, limit: perPage))
                }
                #expect(now.0 == expected.0, "page \(page) of \(perPage)")
                #expect(now.1 == expected.1)
                #expect(now.1 == 22)
            }
        }
    }

    /// The page's statement reads users by index only: SQLite searches `users_created_at` for the
    /// page and walks it as a covering index for the first key; PostgreSQL's generic plan has an
    /// index condition on the page and an index-only scan for the key, and no sequential scan.
    @Test func thePageIsReadByIndex() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        switch harness.configuration.database {
        case .postgres(let settings):
            try await TestDatabase.withConnection(settings) { connection in
                let logger = TestDatabase.logger
                for setting in ["SET plan_cache_mode = force_generic_plan", "SET enable_seqscan = off"] {
                    try await connection.query(PostgresQuery(unsafeSQL: setting), logger: logger)
                }
                let page = PostgresStatement.numberedPlaceholders(SQLTransaction.postgresUserPage)
                try await connection.query(PostgresQuery(unsafeSQL: "PREPARE user_page AS \(page)"), logger: logger)
                var plan = ""
                let explain = PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE user_page(NULL, NULL)")
                for try await line in try await connection.query(explain, logger: logger).decode(String.self) {
                    plan += line + "\n"
                }
                #expect(!plan.contains("Seq Scan"), "\(plan)")
                #expect(plan.contains("Index Only Scan using users_created_at on users"), "\(plan)")
                #expect(plan.contains("Index Scan using users_created_at on users"), "\(plan)")
                #expect(plan.contains("Index Cond: (ROW(created_at, id) >= ROW("), "\(plan)")
            }
        case .sqliteFile(let path):
            let handle = try SQLiteHandle(path: path)
            defer { handle.close() }
            let plan = try handle.rows("EXPLAIN QUERY PLAN " + SQLTransaction.sqliteUserPage).compactMap {
                $0.column("detail")?.string
            }
            let users = plan.filter { $0.contains(" users") }
            #expect(
                users.contains { $0.hasPrefix("SEARCH users USING INDEX users_created_at (created_at>") },
                "\(plan)"
            )
            #expect(users.contains("SCAN users USING COVERING INDEX users_created_at"), "\(plan)")
            #expect(users.count == 2, "\(plan)")
        default:
            Issue.record("no database file to plan on")
        }
    }

    @Test func theAdminAPIPagesAndCountsAsBefore() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            var ids: [String] = []
            for index in 0..<5 {
                let created = try await client.post(
                    "/admin/users",
                    #"{"email":"u\#(index)@example.com","password":"correct horse battery","email_confirm":true}"#,
                    bearer: admin
                )
                ids.append(try #require(created.string("id")))
                if index % 2 == 0 { harness.clock.advance(by: 1) }
            }
            #expect(try await client.send(.delete, "/admin/users/\(ids[1])", bearer: admin).status == .ok)
            let (expected, total) = try await harness.server.storage.transaction { tx in
                try await Self.before(try #require(tx as? SQLTransaction), offset: 0, limit: 100)
            }
            #expect(total == 4)
            var listed: [String] = []
            for page in 1...3 {
                let reply = try await client.get("/admin/users?page=\(page)&per_page=2", bearer: admin)
                #expect(reply.status == .ok)
                #expect(reply.header("X-Total-Count") == "4")
                listed += (reply["users"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            #expect(listed == expected.map(\.key))
        }
    }
}
