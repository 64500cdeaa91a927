import Foundation
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `gatehouse-server operator grant|revoke|list` (issue 37), run as the built binary against the
/// suite's database (SQLite, or PostgreSQL when the suite runs there): the role is stored, each
/// change is an audit line, a revoke ends the operator's console sessions and the session rows
/// behind them, and a wrong address or a change that changes nothing is refused with a message.
@Suite("Operator role command")
struct OperatorCommandTests {
    @Test func grantListAndRevokeTheRole() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        let now = harness.clock.now()
        let ada = UserRecord(email: "ada@example.com", createdAt: now, updatedAt: now)
        let session = SessionRecord(userID: ada.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        try await storage.transaction { tx in
            try await tx.insertUser(ada)
            try await tx.insertSession(session)
            try await tx.insertConsoleSession(
                ConsoleSessionRecord(
                    tokenHash: "h",
                    sessionID: session.id,
                    userID: ada.id,
                    createdAt: now,
                    lastSeenAt: now
                )
            )
        }
        try await storage.close()
        let url = TestDatabase.url(of: harness.configuration.database)
        let secret = TestDatabase.secret(for: harness.directory)
        func run(_ arguments: [String]) async throws -> KeysCommandTests.Run {
            try await KeysCommandTests.run(["operator"] + arguments, database: url, secret: secret)
        }

        let empty = try await run(["list"])
        #expect(empty.status == 0 && empty.lines.isEmpty, "\(empty.output)\(empty.errors)")
        let granted = try await run(["grant", " Ada@Example.com "])
        #expect(granted.status == 0, "\(granted.errors)")
        let listed = try await run(["list"])
        #expect(listed.lines.count == 1 && listed.lines[0].hasPrefix("ada@example.com  granted"), "\(listed.output)")
        let again = try await run(["grant", "ada@example.com"])
        #expect(again.status != 0 && again.errors.contains("unchanged"), "\(again.errors)")
        let unknown = try await run(["grant", "nobody@example.com"])
        #expect(unknown.status != 0 && unknown.errors.contains("no user has the address"), "\(unknown.errors)")
        let revoked = try await run(["revoke", "ada@example.com"])
        #expect(revoked.status == 0, "\(revoked.errors)")
        #expect(try await run(["list"]).lines.isEmpty)
        let twice = try await run(["revoke", "ada@example.com"])
        #expect(twice.status != 0)

        let reopened = try await Harness.make(directory: harness.directory)
        let (lines, console, row) = try await reopened.server.storage.read { reader in
            (
                try await reader.auditEntries(matching: AuditQuery(user: ada.id)).map(\.entry),
                try await reader.consoleSession(tokenHash: "h"),
                try await reader.session(id: session.id)
            )
        }
        #expect(lines.map(\.action) == [.operatorRevoked, .operatorGranted])
        #expect(lines.allSatisfy { $0.subjectID == ada.id })
        #expect(console == nil && row == nil, "the revoke ended the console session and its session row")
        try await reopened.server.storage.close()
    }
}
