package import Foundation
package import GatehouseServerSupport
package import Logging

/// PostgreSQL's shared windows with the busiest buckets' hits taken off the request path: a
/// hit in one of ``batched`` is decided by this process's ``HitTally`` at once, and the hits of
/// every window are written together, in one statement, by the application's rate-limit flush
/// (``RateLimitFlush``, woken through ``wakeup``) within its interval of the first.
///
/// Other buckets (the ones that hold back guessing: failed passwords, codes, factors) go to
/// PostgreSQL on every hit, as before. For a batched bucket one instance is exact; several
/// instances each see the others' hits as of their own last write, so together they admit at
/// most the hits of one interval more than the limit. `/token` (refreshes and sign-ins, 150
/// per client address in 5 minutes by default) is batched: each of its requests carries an
/// unguessable token or meets the failed-password windows, which stay exact.
package struct BatchedRateLimiter: RateLimiter {
    package let base: PostgresRateLimiter
    package let batched: Set<RateLimitBucket>
    package let tally: HitTally
    /// Wakes the flush when a hit waits to be written.
    package let wakeup: Wakeup
    package let logger: Logger

    /// The value of its parts.
    package init(base: PostgresRateLimiter, batched: Set<RateLimitBucket>, tally: HitTally, wakeup: Wakeup, logger: Logger) {
        self.base = base
        self.batched = batched
        self.tally = tally
        self.wakeup = wakeup
        self.logger = logger
    }

    /// The buckets written in batches by default.
    package static let defaultBuckets: Set<RateLimitBucket> = [.token]

    package func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) async throws {
        guard batched.contains(bucket) else {
            return try await base.hit(bucket, key: key, limit: limit, window: window, now: now)
        }
        switch tally.hit(bucket.windowID(key), limit: limit, window: window, now: now.timeIntervalSince1970) {
        case .counted(let schedule):
            if schedule { wakeup.signal() }
        case .full(let retryAfter):
            throw APIError.rateLimited(retryAfter: retryAfter)
        case .untracked:
            try await base.hit(bucket, key: key, limit: limit, window: window, now: now)
        }
    }

    package func isLimited(
        _ bucket: RateLimitBucket,
        key: String,
        limit: Int,
        window: TimeInterval,
        now: Date
    ) async throws
        -> Int?
    {
        if batched.contains(bucket),
            let wait = tally.wait(bucket.windowID(key), limit: limit, now: now.timeIntervalSince1970)
        {
            return wait
        }
        return try await base.isLimited(bucket, key: key, limit: limit, window: window, now: now)
    }

    package func isLimited(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?] {
        guard windows.contains(where: { batched.contains($0.bucket) }) else {
            return try await base.isLimited(windows, key: key, now: now)
        }
        return try await isLimitedOneByOne(windows, key: key, now: now)
    }

    package func release(_ bucket: RateLimitBucket, key: String, window: TimeInterval, now: Date) async throws {
        guard !batched.contains(bucket) else { return }
        try await base.release(bucket, key: key, window: window, now: now)
    }

    /// Writes the pending hits now (the flush, at shutdown, tests).
    /// - Returns: `false` when the write failed: the hits stay pending for the next write.
    @discardableResult
    package func write() async -> Bool {
        let additions = tally.take()
        guard !additions.isEmpty else { return true }
        do {
            tally.written(additions, answers: try await base.add(additions))
            return true
        } catch {
            logger.warning(
                "rate-limit hits not written; kept for the next write",
                metadata: ["windows": "\(additions.count)", "error": "\(String(reflecting: type(of: error)))"]
            )
            _ = tally.failed(additions)
            return false
        }
    }

    /// Writes what is pending and waits for writes under way, for at most `timeout` (at
    /// shutdown, before the pool closes).
    package func settle(timeout: Duration = .seconds(2)) async {
        let deadline = ContinuousClock.now + timeout
        while !tally.isSettled, ContinuousClock.now < deadline {
            await write()
            if !tally.isSettled { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }
}
