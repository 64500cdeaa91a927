import Foundation
import Testing

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
}
