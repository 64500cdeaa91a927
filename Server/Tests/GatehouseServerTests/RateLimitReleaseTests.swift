import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// A try given back (a password that was right) leaves no window behind: a successful sign-in
/// used to leave four windows per account, one of them for a day, in memory on SQLite and as
/// rows on PostgreSQL, so both grew with every new account signing in (issue 32's soak: the
/// SQLite server's memory rose by steps as the maps doubled, PostgreSQL's database by rows).
@Suite("Rate-limit windows given back")
struct RateLimitReleaseTests {
    @Test func aTryGivenBackInMemoryLeavesNoWindowAndASecondTryKeepsIt() async throws {
        let limiter = MemoryRateLimiter(capacity: 1000)
        let now = Date()
        let delays = FailedPasswordDelays(limiter: limiter, dailyLimit: 50)
        let attempt = try await delays.admit(account: "ada@example.com", client: "192.0.2.1", now: now)
        for tier in delays.tiers { #expect(await limiter.count(tier.bucket) == 1) }
        await delays.succeeded(attempt, now: now)
        for tier in delays.tiers { #expect(await limiter.count(tier.bucket) == 0, "\(tier.bucket)") }

        // Two counted, one given back: the other still counts.
        try await limiter.hit(.failedPasswordHour, key: "k", limit: 2, window: 3600, now: now)
        try await limiter.hit(.failedPasswordHour, key: "k", limit: 2, window: 3600, now: now)
        await limiter.release(.failedPasswordHour, key: "k", window: 3600, now: now)
        #expect(await limiter.count(.failedPasswordHour) == 1)
        #expect(await limiter.isLimited(.failedPasswordHour, key: "k", limit: 1, window: 3600, now: now) != nil)
    }

    @Test func theQueueStaysBoundedBehindAWindowOpenForADay() async throws {
        // One real failure keeps its day's window at the front of the queue; a day of accounts
        // signing in successfully behind it must not pile up in the queue until that day ends.
        let limiter = MemoryRateLimiter(capacity: 100_000)
        let start = Date()
        try await limiter.hit(.failedPassword, key: "mallory", limit: 50, window: 86_400, now: start)
        for index in 0..<20_000 {
            let now = start.addingTimeInterval(Double(index))
            try await limiter.hit(.failedPassword, key: "user-\(index)", limit: 50, window: 86_400, now: now)
            await limiter.release(.failedPassword, key: "user-\(index)", window: 86_400, now: now)
        }
        #expect(await limiter.count(.failedPassword) == 1)
        #expect(await limiter.queued(.failedPassword) <= 1030)
        // The live window still counts.
        #expect(
            await limiter.isLimited(.failedPassword, key: "mallory", limit: 1, window: 86_400, now: start) != nil
        )
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "the windows live in PostgreSQL's table"))
    func aTryGivenBackOnPostgresDeletesItsRowAndASecondTryKeepsIt() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let postgres = try #require(harness.server.storage as? PostgresStorage)
        let limiter = postgres.rateLimiter
        let now = harness.clock.now()
        let delays = FailedPasswordDelays(limiter: limiter, dailyLimit: 50)
        let account = "ada-\(UUID().uuidString)@example.com"
        let attempt = try await delays.admit(account: account, client: "192.0.2.1", now: now)
        let key = FailedPasswordDelays.key(account: account, client: "192.0.2.1")
        #expect(try await storedRows(postgres, delays.tiers.map { $0.bucket.windowID(key) }) == 4)
        await delays.succeeded(attempt, now: now)
        #expect(try await storedRows(postgres, delays.tiers.map { $0.bucket.windowID(key) }) == 0)

        try await limiter.hit(.failedPasswordHour, key: key, limit: 5, window: 3600, now: now)
        try await limiter.hit(.failedPasswordHour, key: key, limit: 5, window: 3600, now: now)
        try await limiter.release(.failedPasswordHour, key: key, window: 3600, now: now)
        #expect(try await storedRows(postgres, [RateLimitBucket.failedPasswordHour.windowID(key)]) == 1)
        try await harness.server.storage.close()
    }

    /// How many of the windows `ids` the table holds.
    private func storedRows(_ postgres: PostgresStorage, _ ids: [String]) async throws -> Int {
        try await postgres.read { reader in
            var found = 0
            for id in ids {
                found += try await (reader as! SQLTransaction).executor.rows(
                    "SELECT id FROM rate_limits WHERE id = ?",
                    [.text(id)]
                ).count
            }
            return found
        }
    }
}
