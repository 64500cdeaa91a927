package import Foundation
package import GatehouseStorage

/// The rate limiter with the table of buckets (``RateLimitTable``): a flow counts a request by
/// naming its bucket and key, and the table supplies the window's limit and length.
package struct RateLimits: Sendable {
    let limiter: any RateLimiter
    let table: RateLimitTable

    /// Counts one request of `bucket` under `key`; throws 429 with `Retry-After` when its window
    /// is full.
    package func hit(_ bucket: RateLimitBucket, key: String, now: Date) async throws {
        try await limiter.hit(table.window(bucket), key: key, now: now)
    }

    /// Seconds until `bucket`'s window for `key` reopens when it is full, without counting;
    /// `nil` when open.
    func isLimited(_ bucket: RateLimitBucket, key: String, now: Date) async throws -> Int? {
        try await limiter.isLimited(table.window(bucket), key: key, now: now)
    }

    /// Takes back one request ``hit(_:key:now:)`` counted, if its window is still open.
    func release(_ bucket: RateLimitBucket, key: String, now: Date) async throws {
        try await limiter.release(table.window(bucket), key: key, now: now)
    }
}
