import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// Counts every refusal of the limiter it wraps by bucket (``AuthMetrics/rateLimited(_:)``, and
/// this instance's ``RateLimitRefusals`` for the console); the key (an address, a network, an
/// account) is never a label.
struct CountingRateLimiter: RateLimiter {
    let base: any RateLimiter
    let refusals: RateLimitRefusals

    private func refused(_ bucket: RateLimitBucket) {
        AuthMetrics.rateLimited(bucket)
        refusals.count(bucket)
    }

    func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) async throws {
        do {
            try await base.hit(bucket, key: key, limit: limit, window: window, now: now)
        } catch let error as APIError where error.status == .tooManyRequests {
            refused(bucket)
            throw error
        }
    }

    func isLimited(
        _ bucket: RateLimitBucket,
        key: String,
        limit: Int,
        window: TimeInterval,
        now: Date
    ) async throws -> Int? {
        let retry = try await base.isLimited(bucket, key: key, limit: limit, window: window, now: now)
        if retry != nil { refused(bucket) }
        return retry
    }

    func isLimited(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?] {
        let waits = try await base.isLimited(windows, key: key, now: now)
        for (window, wait) in zip(windows, waits) where wait != nil { refused(window.bucket) }
        return waits
    }

    func release(_ bucket: RateLimitBucket, key: String, window: TimeInterval, now: Date) async throws {
        try await base.release(bucket, key: key, window: window, now: now)
    }
}
