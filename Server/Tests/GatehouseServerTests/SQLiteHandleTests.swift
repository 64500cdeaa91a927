import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The synchronous SQLite layer under ``SQLiteStorage``: values, errors, cached statements that
/// stay compiled, and readers that never wait for the writer.
@Suite("SQLite handle")
struct SQLiteHandleTests {
    /// Runs `body` with a handle on a new database file, then closes and removes it.
    private static func withHandle(_ body: (SQLiteHandle) throws -> Void) throws {
        let path = TestDatabase.scratchSQLitePath("handle")
        defer { TestDatabase.removeSQLiteFiles(at: path) }
        let handle = try SQLiteHandle(path: path)
        defer { handle.close() }
        try body(handle)
    }

    @Test func valuesRoundTripAndErrorsAreTold() throws {
        try Self.withHandle { handle in
            try handle.execute("CREATE TABLE t (k TEXT PRIMARY KEY, i INTEGER, f REAL, n TEXT)")
            let text = "zero\u{0}byte, ünïcode ✓"
            _ = try handle.rows("INSERT INTO t VALUES (?, ?, ?, ?)", [.text(text), .integer(-42), .float(1.5), .null])
            let row = try #require(try handle.rows("SELECT * FROM t WHERE k = ?", [.text(text)]).first)
            #expect(row.column("k") == .text(text))
            #expect(row.column("i") == .integer(-42))
            #expect(row.column("f") == .float(1.5))
            #expect(row.column("n") == .null)

            let duplicate = #expect(throws: SQLiteFailure.self) {
                try handle.rows("INSERT INTO t (k) VALUES (?)", [.text(text)])
            }
            #expect(duplicate?.isUniqueViolation == true)
            let syntax = #expect(throws: SQLiteFailure.self) { try handle.rows("SELEC nonsense") }
            #expect(syntax?.isUniqueViolation == false)
            #expect(syntax?.message.contains("syntax error") == true)
            let twoStatements = #expect(throws: SQLiteFailure.self) {
                try handle.execute("DELETE FROM t; DROP TABLE t")
            }
            #expect(twoStatements?.message.contains("one statement at a time") == true)
            // The failed statements left the connection usable, and nothing of them ran.
            #expect(try handle.rows("SELECT count(*) AS c FROM t").first?.column("c") == .integer(1))
        }
    }

    @Test func aCachedStatementFollowsASchemaChange() throws {
        try Self.withHandle { handle in
            try handle.execute("CREATE TABLE t (a TEXT)")
            _ = try handle.rows("INSERT INTO t (a) VALUES (?)", [.text("one")])
            #expect(try handle.rows("SELECT * FROM t").first?.column("b") == nil)
            try handle.execute("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'two'")
            let row = try #require(try handle.rows("SELECT * FROM t").first)
            #expect(row.column("a") == .text("one"))
            #expect(row.column("b") == .text("two"), "the cached statement's columns follow the new schema")
        }
    }

    @Test func joinedStatementsStayCompiledAcrossBinds() throws {
        try Self.withHandle { handle in
            try handle.execute("CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT)")
            try handle.execute("CREATE UNIQUE INDEX users_email ON users (email) WHERE email IS NOT NULL")
            try handle.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL)")
            for index in 0..<20 {
                _ = try handle.rows(
                    "INSERT INTO users VALUES (?, ?)",
                    [.text("u\(index)"), .text("u\(index)@example.com")]
                )
                _ = try handle.rows("INSERT INTO sessions VALUES (?, ?)", [.text("s\(index)"), .text("u\(index)")])
            }
            // The shape of the per-request session check: a join, a bound key that changes every time.
            let sql = "SELECT users.email FROM sessions s JOIN users ON users.id = s.user_id WHERE s.id = ?"
            for index in 0..<100 {
                let row = try handle.rows(sql, [.text("s\(index % 20)")]).first
                #expect(row?.column("email") == .text("u\(index % 20)@example.com"))
            }
            #expect(handle.recompilations == 0, "a new bound value must not compile the statement again")
        }
    }

    @Test func readersSeeCommitsAndNeverWaitForTheWriter() async throws {
        let path = TestDatabase.scratchSQLitePath("handle")
        defer { TestDatabase.removeSQLiteFiles(at: path) }
        let storage = try await SQLiteStorage.open(.sqliteFile(path), logger: .init(label: "test"))
        try await storage.migrate()
        let now = Date()
        let user = UserRecord(email: "reader@example.com", createdAt: now, updatedAt: now)
        try await storage.transaction { try await $0.insertUser(user) }
        #expect(try await storage.read { try await $0.user(id: user.id) }?.email == "reader@example.com")

        // A write transaction stays open (its body waits) while a read runs and finishes.
        let (opened, openedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let writer = Task {
            try await storage.transaction { tx in
                var changed = user
                changed.email = "changed@example.com"
                try await tx.updateUser(changed)
                openedSignal.yield()
                for await _ in release { break }
            }
        }
        try await Deadline.run { for await _ in opened { break } }
        enum Outcome: Sendable {
            case read(String?)
            case timedOut
        }
        let outcome = try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask { .read(try await storage.read { try await $0.user(id: user.id) }?.email) }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return .timedOut
            }
            let first = try await group.next() ?? .timedOut
            // Whatever happened, let the writer finish so that nothing is left waiting.
            releaseSignal.yield()
            group.cancelAll()
            return first
        }
        guard case .read(let email) = outcome else {
            Issue.record("the read waited for the open write transaction")
            return
        }
        #expect(email == "reader@example.com", "a read sees the last commit, not the open transaction")
        try await writer.value
        #expect(try await storage.read { try await $0.user(id: user.id) }?.email == "changed@example.com")
        try await storage.close()
    }
}
