package import Foundation

/// Fixed-window request counters per bucket and key (a client address or an account): in
/// memory for one SQLite server (``MemoryRateLimiter``), in the database when several
/// instances share PostgreSQL (``PostgresRateLimiter``).
package protocol RateLimiter: Sendable {
    /// Counts one request; throws 429 with `Retry-After` when the window is full.
    func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) async throws

    /// Seconds until the window reopens when it is full, without counting; `nil` when open.
    func isLimited(
        _ bucket: RateLimitBucket,
        key: String,
        limit: Int,
        window: TimeInterval,
        now: Date
    ) async throws
        -> Int?

    /// For each of `windows` (all counted under `key`), seconds until it reopens when it is
    /// full, else `nil`, without counting: ``isLimited(_:key:limit:window:now:)`` for each, in
    /// one look where the store allows (PostgreSQL: one statement).
    func isLimited(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?]

    /// Takes back one request ``hit(_:key:limit:window:now:)`` counted in `key`'s window, if that
    /// window is still open: a budget of failures counts every try before the expensive check
    /// and gives back the ones that succeeded (`security.md` SA-5). Batched buckets
    /// (``BatchedRateLimiter``) are never given back.
    func release(_ bucket: RateLimitBucket, key: String, window: TimeInterval, now: Date) async throws
}

extension RateLimiter {
    package func isLimited(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?] {
        try await isLimitedOneByOne(windows, key: key, now: now)
    }

    /// ``isLimited(_:key:limit:window:now:)`` for each of `windows`, in turn.
    package func isLimitedOneByOne(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?] {
        var waits: [Int?] = []
        for window in windows {
            waits.append(
                try await isLimited(window.bucket, key: key, limit: window.limit, window: window.window, now: now)
            )
        }
        return waits
    }

    /// Counts one request in `window` (its bucket, limit and length) under `key`.
    package func hit(_ window: RateLimitWindow, key: String, now: Date) async throws {
        try await hit(window.bucket, key: key, limit: window.limit, window: window.window, now: now)
    }

    /// Seconds until `window` reopens for `key` when it is full, without counting; `nil` when open.
    package func isLimited(_ window: RateLimitWindow, key: String, now: Date) async throws -> Int? {
        try await isLimited(window.bucket, key: key, limit: window.limit, window: window.window, now: now)
    }

    /// Takes back one request counted in `window` under `key`.
    package func release(_ window: RateLimitWindow, key: String, now: Date) async throws {
        try await release(window.bucket, key: key, window: window.window, now: now)
    }
}
