import Foundation
import GatehouseProcessTesting
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Storage guarantees the controllers rely on, on SQLite (with group commit) and PostgreSQL.
@Suite("Storage transactions")
struct StorageTests {
    struct Rollback: Error {}

    @Test func concurrentTransactionsCommitOrRollBackOneByOne() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        let now = Date()
        // 60 transactions at once: every third writes a user and then fails.
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<60 {
                group.addTask {
                    do {
                        try await storage.transaction { tx in
                            try await tx.insertUser(
                                UserRecord(email: "user\(index)@example.com", createdAt: now, updatedAt: now)
                            )
                            if index % 3 == 0 { throw Rollback() }
                        }
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            var outcomes: [Int: Bool] = [:]
            for await (index, committed) in group { outcomes[index] = committed }
            return outcomes
        }
        for index in 0..<60 {
            let stored = try await storage.transaction { try await $0.user(email: "user\(index)@example.com") }
            #expect(outcomes[index] == (index % 3 != 0))
            #expect((stored != nil) == (index % 3 != 0), "user\(index): only what answered success is stored")
        }
        // A unique violation inside a batch fails that transaction alone.
        let duplicate = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    (try? await storage.transaction { tx in
                        try await tx.insertUser(UserRecord(email: "same@example.com", createdAt: now, updatedAt: now))
                    }) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(duplicate.filter { $0 }.count == 1, "one of two identical inserts wins")
        try await storage.close()
    }

    /// Issue 35: a read whose result decides a conditional write (a refresh's rotation). The
    /// write runs only when asked, holds by its own condition (a counter read before another
    /// request moved it changes nothing), and a read that asks for no write writes nothing.
    @Test func aReadThenItsAutocommitWritesOnlyWhenAskedAndByItsCondition() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        let now = Date()
        let user = UserRecord(email: "reader@example.com", createdAt: now, updatedAt: now)
        let session = SessionRecord(userID: user.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        try await storage.transaction { tx in
            try await tx.insertUser(user)
            try await tx.insertSession(session)
        }
        let line = AuditEntry(at: now, action: .tokenRefreshed, actorID: user.id, ip: "::1")
        /// Reads the session, then rotates it from `counter` (the one read when `nil`) if asked.
        func rotate(asked: Bool, from counter: Int64? = nil) async throws -> (read: Int64?, won: Bool?) {
            let (read, won) = try await storage.read { reader -> SessionRecord? in
                try await reader.session(id: session.id)
            } thenAutocommit: { read -> (@Sendable (any StorageTransaction) async throws -> Bool)? in
                guard asked, let read else { return nil }
                return { tx in
                    try await tx.rotateSession(
                        id: read.id,
                        expectedCounter: counter ?? read.counter,
                        at: now,
                        from: "::1",
                        audit: line
                    )
                }
            }
            return (read?.counter, won)
        }
        let start = session.counter
        #expect(try await rotate(asked: false) == (start, nil), "no write asked: none made")
        #expect(try await storage.read { try await $0.session(id: session.id) }?.counter == start)
        #expect(try await rotate(asked: true) == (start, true), "the counter read is moved on")
        #expect(try await rotate(asked: true, from: start) == (start + 1, false), "a stale counter moves nothing")
        #expect(try await storage.read { try await $0.session(id: session.id) }?.counter == start + 1)
        try await storage.close()
    }

    @Test func aUserChangedWhileAnotherTransactionHoldsItKeepsBothChanges() async throws {
        // A sign-in reads the user, and while its transaction is still open an admin bans the
        // user. Each writes the whole row back: the ban must not be lost to the sign-in's write
        // (PostgreSQL's read committed lets the second reader see the old row unless the first
        // read locked it), nor the sign-in's to the ban's.
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let id = try await storage.transaction { tx in
            let user = UserRecord(email: "ada@example.com", createdAt: now, updatedAt: now)
            try await tx.insertUser(user)
            return user.id
        }
        let (read, signalRead) = AsyncStream.makeStream(of: Void.self)
        let signIn = Task {
            try await storage.transaction { tx in
                var user = try #require(try await tx.user(id: id))
                signalRead.yield()
                try await Task.sleep(for: .milliseconds(400))  // the ban is sent meanwhile
                user.lastSignInAt = now
                try await tx.updateUser(user)
            }
        }
        try await Deadline.run { for await _ in read { break } }
        try await storage.transaction { tx in
            var user = try #require(try await tx.user(id: id))
            user.bannedUntil = now.addingTimeInterval(86_400)
            try await tx.updateUser(user)
        }
        try await signIn.value
        let stored = try #require(try await storage.read { try await $0.user(id: id) })
        #expect(stored.bannedUntil == now.addingTimeInterval(86_400), "the ban is kept")
        #expect(stored.lastSignInAt == now, "the sign-in's write is kept")
        try await storage.close()
    }
}
