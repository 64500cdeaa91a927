import Foundation

/// Growing delays after failed passwords, keyed by account and client network (an IPv4
/// address, an IPv6 /64): 5 failures in a minute make the next try wait out the minute, 10 in
/// ten minutes the ten minutes, 20 in an hour the hour, and the daily limit the day. Someone
/// guessing from elsewhere slows only themselves: the owner signs in from their own network,
/// and a code sign-in is never held back.
struct FailedPasswordDelays: Sendable {
    let limiter: any RateLimiter
    /// The windows of failures: how many, over how long.
    let tiers: [RateLimitWindow]

    init(limiter: any RateLimiter, dailyLimit: Int) {
        self.limiter = limiter
        tiers = [
            RateLimitWindow(bucket: .failedPasswordMinute, limit: 5, window: 60),
            RateLimitWindow(bucket: .failedPasswordTenMinutes, limit: 10, window: 600),
            RateLimitWindow(bucket: .failedPasswordHour, limit: 20, window: 3600),
            RateLimitWindow(bucket: .failedPassword, limit: dailyLimit, window: 86_400),
        ]
    }

    /// The limiter key: the account on the client's network.
    static func key(account: String, client: String) -> String {
        "\(account)|\(ClientAddress.limitKey(client))"
    }

    /// 429 with `Retry-After` (the longest wait of the tiers that are full) before any bcrypt,
    /// from one look at every tier.
    func check(account: String, client: String, now: Date) async throws {
        let waits = try await limiter.isLimited(tiers, key: Self.key(account: account, client: client), now: now)
        if let wait = waits.compactMap({ $0 }).max() { throw APIError.rateLimited(retryAfter: wait) }
    }

    /// Counts a failure in every tier.
    func recordFailure(account: String, client: String, now: Date) async {
        let key = Self.key(account: account, client: client)
        for tier in tiers {
            try? await limiter.hit(tier.bucket, key: key, limit: Int.max, window: tier.window, now: now)
        }
    }
}
