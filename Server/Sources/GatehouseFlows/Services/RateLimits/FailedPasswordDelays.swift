import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Growing delays after failed passwords, keyed by account and client network (an IPv4
/// address, an IPv6 /64): 5 failures in a minute make the next try wait out the minute, 10 in
/// ten minutes the ten minutes, 20 in an hour the hour, and the daily limit the day. Someone
/// guessing from elsewhere slows only themselves: the owner signs in from their own network,
/// and a code sign-in is never held back.
struct FailedPasswordDelays: Sendable {
    let limiter: any RateLimiter
    /// The windows of failures: how many, over how long.
    let tiers: [RateLimitWindow]

    /// The buckets of the tiers, shortest first.
    static let buckets: [RateLimitBucket] = [
        .failedPasswordMinute, .failedPasswordTenMinutes, .failedPasswordHour, .failedPassword,
    ]

    /// The delays of the tiers `table` gives.
    init(limiter: any RateLimiter, table: RateLimitTable) {
        self.limiter = limiter
        tiers = Self.buckets.map(table.window)
    }

    /// The delays with `dailyLimit` failures a day (the other tiers are fixed).
    init(limiter: any RateLimiter, dailyLimit: Int) {
        var limits = RateLimitSettings()
        limits.failedPasswordsPerAccount = dailyLimit
        self.init(limiter: limiter, table: RateLimitTable(limits: limits, codeSpacing: 0))
    }

    /// The limiter key: the account on the client's network.
    static func key(account: String, client: String) -> String {
        "\(account)|\(ClientAddress.limitKey(client))"
    }

    /// A try counted in the tiers, to give back when the password was right.
    struct Attempt: Sendable {
        fileprivate let key: String
        fileprivate let counted: [RateLimitWindow]
    }

    /// Counts a try in every tier before any bcrypt (`security.md` SA-5): one look at every tier
    /// first (429 with `Retry-After`, the longest wait of the tiers that are full), then each
    /// tier counts it in one atomic step, so that of many concurrent tries at most a tier's
    /// allowance reaches bcrypt; a tier filled meanwhile refuses with 429.
    func admit(account: String, client: String, now: Date) async throws -> Attempt {
        let key = Self.key(account: account, client: client)
        let waits = try await limiter.isLimited(tiers, key: key, now: now)
        if let wait = waits.compactMap({ $0 }).max() { throw APIError.rateLimited(retryAfter: wait) }
        var counted: [RateLimitWindow] = []
        for tier in tiers {
            try await limiter.hit(tier, key: key, now: now)
            counted.append(tier)
        }
        return Attempt(key: key, counted: counted)
    }

    /// Gives back a try whose password was right: only failures count.
    func succeeded(_ attempt: Attempt, now: Date) async {
        for tier in attempt.counted {
            try? await limiter.release(tier, key: attempt.key, now: now)
        }
    }
}
