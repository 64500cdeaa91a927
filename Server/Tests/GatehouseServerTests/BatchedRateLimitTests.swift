import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `/token`'s rate limit on PostgreSQL is decided in the process and written in batches
/// (``BatchedRateLimiter``): one instance is exact, instances share their counts through the
/// table, and a window that closes opens anew.
@Suite("Rate-limit hits written in batches")
struct BatchedRateLimitTests {
    @Test func oneProcessIsExactWhileItsHitsAreUnwrittenOrBeingWritten() {
        let tally = HitTally()
        #expect(tally.hit("token|a", limit: 3, window: 300, now: 1_000) == .counted(schedule: true))
        #expect(tally.hit("token|a", limit: 3, window: 300, now: 1_001) == .counted(schedule: false))
        let first = tally.take()
        #expect(first == [HitTally.Addition(id: "token|a", at: 1_001, window: 300, count: 2)])
        // Two hits are being written and not yet answered: they still count.
        #expect(tally.hit("token|a", limit: 3, window: 300, now: 1_002) == .counted(schedule: true))
        #expect(tally.hit("token|a", limit: 3, window: 300, now: 1_003) == .full(retryAfter: 297))
        #expect(tally.wait("token|a", limit: 3, now: 1_003) == 297)
        // Another key has its own window.
        #expect(tally.hit("token|b", limit: 3, window: 300, now: 1_003) == .counted(schedule: false))
    }

    @Test func theDatabasesAnswerBringsInTheOtherInstancesHits() {
        let tally = HitTally()
        _ = tally.hit("token|a", limit: 5, window: 300, now: 1_000)
        let additions = tally.take()
        // Another instance had counted three in a window that opened earlier.
        tally.written(additions, answers: ["token|a": (start: 900, count: 4)])
        #expect(tally.hit("token|a", limit: 5, window: 300, now: 1_010) == .counted(schedule: true))
        #expect(tally.hit("token|a", limit: 5, window: 300, now: 1_010) == .full(retryAfter: 190))
        // That window closes at 1,200, by its start in the database, and the next hit opens one.
        #expect(tally.hit("token|a", limit: 5, window: 300, now: 1_200) == .counted(schedule: false))
    }

    @Test func aFailedWriteKeepsItsHitsForTheNextWrite() {
        let tally = HitTally()
        _ = tally.hit("token|a", limit: 5, window: 300, now: 1_000)
        _ = tally.hit("token|a", limit: 5, window: 300, now: 1_000)
        let additions = tally.take()
        #expect(tally.failed(additions))
        #expect(tally.take() == [HitTally.Addition(id: "token|a", at: 1_000, window: 300, count: 2)])
    }

    /// One CI run's PostgreSQL pass: the flush had written a full window's hits but its answer
    /// had not come back when the next window's first hit came, and that hit was refused (429).
    @Test func aWindowThatClosesWhileItsHitsAreWrittenOpensAnewWithoutThem() {
        let tally = HitTally()
        _ = tally.hit("token|a", limit: 2, window: 60, now: 1_000)
        _ = tally.hit("token|a", limit: 2, window: 60, now: 1_000)
        let closing = tally.take()
        // The database's window for them opened at 1,000 at the latest, so it has ended by
        // 1,061: the next hit opens a window of its own before the write is answered.
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_061) == .counted(schedule: true))
        #expect(!tally.isSettled)
        // The late answer is about the window that ended: the new one keeps its start and hit.
        tally.written(closing, answers: ["token|a": (start: 1_000, count: 2)])
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_062) == .counted(schedule: false))
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_063) == .full(retryAfter: 58))
        #expect(tally.take() == [HitTally.Addition(id: "token|a", at: 1_062, window: 60, count: 2)])
    }

    @Test func hitsBeingWrittenStillCountWhileTheWindowTheyLandInMayBeOpen() {
        let tally = HitTally()
        _ = tally.hit("token|a", limit: 2, window: 60, now: 1_000)
        _ = tally.hit("token|a", limit: 2, window: 60, now: 1_030)
        // Written with the latest hit's time: the database may open their window at 1,030.
        let additions = tally.take()
        #expect(additions == [HitTally.Addition(id: "token|a", at: 1_030, window: 60, count: 2)])
        // This process's window ended at 1,060; the database's may run to 1,090.
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_070) == .full(retryAfter: 60))
        tally.written(additions, answers: ["token|a": (start: 1_030, count: 2)])
        #expect(tally.isSettled)
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_071) == .full(retryAfter: 19))
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_090) == .counted(schedule: true))
    }

    @Test func aFailedWriteOfAWindowThatHasEndedDropsItsHits() {
        let tally = HitTally()
        _ = tally.hit("token|a", limit: 2, window: 60, now: 1_000)
        let additions = tally.take()
        #expect(tally.hit("token|a", limit: 2, window: 60, now: 1_061) == .counted(schedule: true))
        // Not written, and their window is over: they are not carried into the new one.
        #expect(!tally.failed(additions))
        #expect(tally.isSettled == false)
        #expect(tally.take() == [HitTally.Addition(id: "token|a", at: 1_061, window: 60, count: 1)])
    }

    @Test func closedWindowsAreForgottenAndTheTallyIsBounded() {
        let tally = HitTally(capacity: 2)
        _ = tally.hit("token|a", limit: 5, window: 60, now: 1_000)
        _ = tally.hit("token|b", limit: 5, window: 60, now: 1_000)
        // Full: a third key is left to the database.
        #expect(tally.hit("token|c", limit: 5, window: 60, now: 1_001) == .untracked)
        let additions = tally.take()
        tally.written(additions, answers: ["token|a": (1_000, 1), "token|b": (1_000, 1)])
        // Once a later hit shows both windows closed, the next write forgets them.
        #expect(tally.hit("token|a", limit: 5, window: 60, now: 1_060) == .counted(schedule: true))
        #expect(tally.take().map(\.id) == ["token|a"])
        #expect(tally.hit("token|c", limit: 5, window: 60, now: 1_061) == .counted(schedule: true))
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "the batched windows live in PostgreSQL"))
    func twoInstancesShareTheirCountsThroughTheTable() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let postgres = try #require(harness.server.storage as? PostgresStorage)
        // Two instances' limiters on one table; no flush runs for them, so only the test's own
        // writes land.
        let base = postgres.rateLimiter.base
        func instance() -> BatchedRateLimiter {
            BatchedRateLimiter(
                base: base,
                batched: [.token],
                tally: HitTally(),
                wakeup: Wakeup(),
                logger: base.logger
            )
        }
        let (first, second) = (instance(), instance())
        let now = harness.clock.now()
        let key = "203.0.113.\(Int.random(in: 1...254))-\(UUID().uuidString)"
        for _ in 0..<3 { try await first.hit(.token, key: key, limit: 4, window: 300, now: now) }
        await first.write()
        #expect(try await storedCount(postgres, "token|\(key)") == 3)
        // The second instance has not written yet: it admits a hit, and its write learns the 3.
        try await second.hit(.token, key: key, limit: 4, window: 300, now: now)
        await second.write()
        #expect(try await storedCount(postgres, "token|\(key)") == 4)
        await #expect(throws: APIError.self) {
            try await second.hit(.token, key: key, limit: 4, window: 300, now: now.addingTimeInterval(1))
        }
        #expect(try await second.isLimited(.token, key: key, limit: 4, window: 300, now: now) != nil)
        // Buckets that hold back guessing still count in the database on every hit.
        try await first.hit(.otp, key: key, limit: 4, window: 300, now: now)
        #expect(try await storedCount(postgres, "otp|\(key)") == 1)
        try await harness.server.storage.close()
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "the batched windows live in PostgreSQL"))
    func aWindowThatClosedOpensAnewInTheTableAndHitsReachItWithoutAnExplicitWrite() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let postgres = try #require(harness.server.storage as? PostgresStorage)
        let limiter = postgres.rateLimiter
        // The application's flush, as its service group runs it.
        let flush = Task { try await postgres.rateLimitFlush.run() }
        let now = harness.clock.now()
        let key = "198.51.100.\(Int.random(in: 1...254))-\(UUID().uuidString)"
        for _ in 0..<2 { try await limiter.hit(.token, key: key, limit: 2, window: 60, now: now) }
        await #expect(throws: APIError.self) {
            try await limiter.hit(.token, key: key, limit: 2, window: 60, now: now)
        }
        // The flush's write lands within its interval.
        var stored: (start: Double, count: Int)?
        for _ in 0..<100 where stored?.count != 2 {
            try await Task.sleep(for: .milliseconds(20))
            stored = try await storedWindow(postgres, "token|\(key)")
        }
        #expect(stored?.count == 2)
        let later = now.addingTimeInterval(61)
        try await limiter.hit(.token, key: key, limit: 2, window: 60, now: later)
        for _ in 0..<100 where stored?.count != 1 {
            try await Task.sleep(for: .milliseconds(20))
            stored = try await storedWindow(postgres, "token|\(key)")
        }
        #expect(stored?.count == 1)
        #expect(stored?.start == later.timeIntervalSince1970)
        flush.cancel()
        _ = await flush.result
        try await harness.server.storage.close()
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "the batched windows live in PostgreSQL"))
    func hitsCountedOnlyInTheProcessAreWrittenWhenTheStorageCloses() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let postgres = try #require(harness.server.storage as? PostgresStorage)
        guard case .postgres(let settings) = harness.configuration.database else {
            Issue.record("not PostgreSQL")
            return
        }
        let key = "192.0.2.\(Int.random(in: 1...254))-\(UUID().uuidString)"
        for _ in 0..<3 {
            try await postgres.rateLimiter.hit(.token, key: key, limit: 10, window: 300, now: harness.clock.now())
        }
        // Closed at once, before the 20 ms write: the close writes them.
        try await postgres.close()
        let reopened = try await PostgresStorage.open(settings, logger: Logger(label: "test"))
        #expect(try await storedCount(reopened, "token|\(key)") == 3)
        try await reopened.close()
    }

    private func storedCount(_ postgres: PostgresStorage, _ id: String) async throws -> Int? {
        try await storedWindow(postgres, id)?.count
    }

    /// The window `id` as the table holds it: its start and count.
    private func storedWindow(_ postgres: PostgresStorage, _ id: String) async throws -> (start: Double, count: Int)? {
        let rows = try await postgres.read { reader in
            try await (reader as! SQLTransaction).executor.rows(
                "SELECT window_start, count FROM rate_limits WHERE id = ?",
                [.text(id)]
            )
        }
        guard case .float(let start) = rows.first?.column("window_start"),
            case .integer(let count) = rows.first?.column("count")
        else { return nil }
        return (start, count)
    }
}
