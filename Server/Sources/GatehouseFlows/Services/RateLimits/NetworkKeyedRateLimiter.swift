import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Keys every limit by network rather than by address where that matters: an IPv6 client
/// counts by its /64, which one subscriber holds whole, so rotating through its addresses
/// gains nothing (``ClientAddress/limitKey(_:)``). Other keys pass unchanged.
struct NetworkKeyedRateLimiter: RateLimiter {
    let base: any RateLimiter

    func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) async throws {
        try await base.hit(bucket, key: ClientAddress.limitKey(key), limit: limit, window: window, now: now)
    }

    func isLimited(
        _ bucket: RateLimitBucket,
        key: String,
        limit: Int,
        window: TimeInterval,
        now: Date
    ) async throws
        -> Int?
    {
        try await base.isLimited(bucket, key: ClientAddress.limitKey(key), limit: limit, window: window, now: now)
    }

    func isLimited(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?] {
        try await base.isLimited(windows, key: ClientAddress.limitKey(key), now: now)
    }

    func release(_ bucket: RateLimitBucket, key: String, window: TimeInterval, now: Date) async throws {
        try await base.release(bucket, key: ClientAddress.limitKey(key), window: window, now: now)
    }
}
