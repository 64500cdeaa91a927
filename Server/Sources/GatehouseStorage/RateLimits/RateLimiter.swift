package import Foundation

/// What a rate limit counts.
package enum RateLimitBucket: String, Sendable {
    case token, verify, otp, anonymous, failedPassword
    /// Sensitive actions per user and client network (``SensitiveActionGuard``).
    case sensitiveChanges
    /// Factor challenges and verifies per client network (a minute) and per user on a client
    /// network (an hour); wrong codes per user (an hour): ``MFABudget``.
    case mfa, mfaUser, mfaFailures
    /// Passkey ceremonies (registration and sign-in options and verifies) per client address.
    case passkey
    /// Sign-ins through a provider's page (`/authorize`, `/callback`) per client address.
    case oauth
    /// Mail requests for one address per hour, of every kind, from one client network and from
    /// every network together; mails per hour to confirmed and to unconfirmed addresses (the
    /// whole server's); sign-up mails per client network per hour: ``MailBudget``.
    case emailRecipientClient, emailRecipient, emailSent, emailSentUnconfirmed, signupEmail
    /// Send requests for an address no account has (spaced like a known one's).
    case unknownRecipient
    /// The shorter windows of failed passwords (a minute, ten minutes, an hour; the day is
    /// ``failedPassword``): the growing delays of ``PasswordSignIn``.
    case failedPasswordMinute, failedPasswordTenMinutes, failedPasswordHour
}

extension RateLimitBucket {
    /// The id of `key`'s window in this bucket where windows are stored by id (PostgreSQL's
    /// `rate_limits` table, and this process's tally of its batched windows).
    package func windowID(_ key: String) -> String { "\(rawValue)|\(key)" }
}

/// One window a look at several (``RateLimiter/isLimited(_:key:now:)``) checks: a bucket, its
/// limit and its length.
package struct RateLimitWindow: Sendable {
    package let bucket: RateLimitBucket
    package let limit: Int
    package let window: TimeInterval

    /// The value of its parts.
    package init(bucket: RateLimitBucket, limit: Int, window: TimeInterval) {
        self.bucket = bucket
        self.limit = limit
        self.window = window
    }
}

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
}
