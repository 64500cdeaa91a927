import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Logging
import PostgresNIO
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Named prepared statements on PostgreSQL: one name per SQL text and parameter types, and a
/// failure inside a transaction never leaves a statement refused on its connection.
@Suite("PostgreSQL named statements")
struct PostgresStatementTests {
    @Test func oneNamePerTextAndParameterTypes() throws {
        let sql = "SELECT ? AS a, ? AS b -- \(UUID())"
        let first = try #require(PostgresStatement.named(sql, types: [.text, .int8]))
        let again = try #require(PostgresStatement.named(sql, types: [.text, .int8]))
        let other = try #require(PostgresStatement.named(sql, types: [.text, .null]))
        #expect(first == again)
        #expect(first.name != other.name, "a NULL binds untyped: another statement")
        #expect(first.sql.hasPrefix("SELECT $1 AS a, $2 AS b"))
        #expect(first.name.hasPrefix("gh_"))
    }

    @Test(.enabled(if: TestDatabase.isPostgres))
    func aStatementRefusedInAnAbortedTransactionWorksAfterTheRollback() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = try #require(harness.server.storage as? PostgresStorage)
        let logger = Logger(label: "test")
        // Never run before in this process, so it is first prepared inside the aborted transaction.
        let fresh = "SELECT ? || '-\(UUID().uuidString.lowercased())' AS v"
        try await storage.client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let executor = PostgresExecutor(connection: connection, logger: logger)
            await #expect(throws: (any Error).self) { try await executor.rows("SELECT 1 / 0 AS boom", []) }
            await #expect(throws: (any Error).self, "the transaction is aborted") {
                try await executor.rows(fresh, [.text("a")])
            }
            try await connection.query("ROLLBACK", logger: logger)
            for _ in 0..<3 {
                let rows = try await PostgresExecutor(connection: connection, logger: logger).rows(fresh, [.text("a")])
                #expect(rows.first?.column("v")?.string?.hasPrefix("a-") == true)
            }
        }
    }

    @Test(.enabled(if: TestDatabase.isPostgres))
    func statementsBindTheTypesTheyWerePreparedWith() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = try #require(harness.server.storage as? PostgresStorage)
        let logger = Logger(label: "test")
        // An INTEGER column bound first with NULL, then with a value, then NULL again.
        let sql = "SELECT COALESCE(?, 7) + 0 AS n FROM (SELECT 1) AS one"
        try await storage.client.withConnection { connection in
            for value: SQLValue in [.null, .integer(3), .null, .integer(4)] {
                let rows = try await PostgresExecutor(connection: connection, logger: logger).rows(sql, [value])
                #expect(rows.first?.column("n")?.integer == (value.integer ?? 7))
            }
        }
    }

    /// Issue 35: a named statement's results share one column table, and a result whose columns
    /// changed (a column added by another instance's migration, seen on a new connection) gets
    /// its own: no value is read from another column's position.
    @Test(.enabled(if: TestDatabase.isPostgres))
    func resultsShareTheirStatementsColumnsUntilTheColumnsChange() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = try #require(harness.server.storage as? PostgresStorage)
        let logger = Logger(label: "test")
        let table = "columns_\(UUID().uuidString.prefix(8).lowercased())"
        let sql = "SELECT * FROM \(table) WHERE 1 = ?"
        try await storage.client.withConnection { connection in
            _ = try await PostgresExecutor(connection: connection, logger: logger)
                .rows("CREATE TABLE \(table) (a TEXT, c TEXT)", [])
            _ = try await PostgresExecutor(connection: connection, logger: logger)
                .rows("INSERT INTO \(table) VALUES ('first', 'third')", [])
            let first = try await PostgresExecutor(connection: connection, logger: logger).rows(sql, [.integer(1)])
            let again = try await PostgresExecutor(connection: connection, logger: logger).rows(sql, [.integer(1)])
            let (one, two) = (try #require(first.first), try #require(again.first))
            #expect(one.columns === two.columns, "one table for the statement's results")
            #expect(two.column("c")?.string == "third")
            // Another column, before `c`: a new connection prepares the statement again.
            _ = try await PostgresExecutor(connection: connection, logger: logger)
                .rows("ALTER TABLE \(table) DROP COLUMN c, ADD COLUMN b TEXT DEFAULT 'second', ADD COLUMN c TEXT", [])
            _ = try await PostgresExecutor(connection: connection, logger: logger)
                .rows("UPDATE \(table) SET c = 'third'", [])
        }
        let fresh = try await PostgresStorage.open(storage.settings, logger: logger)
        try await fresh.client.withConnection { connection in
            let rows = try await PostgresExecutor(connection: connection, logger: logger).rows(sql, [.integer(1)])
            let row = try #require(rows.first)
            #expect(row.columns.names == ["a", "b", "c"])
            #expect(row.column("b")?.string == "second")
            #expect(row.column("c")?.string == "third")
        }
        try await fresh.close()
    }
}
