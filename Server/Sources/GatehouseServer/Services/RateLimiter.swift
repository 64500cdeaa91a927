import Foundation

/// Fixed-window request counters per bucket and key (client address or account), in memory.
/// With one SQLite server that is the whole picture; several instances share PostgreSQL state
/// in a later step.
actor RateLimiter {
    enum Bucket: String, Sendable {
        case token, verify, otp, anonymous, emailSent, failedPassword
    }

    private struct Window {
        var start: Date
        var count: Int
    }

    private var windows: [String: Window] = [:]

    /// Counts one request; throws 429 with `Retry-After` when the window is full.
    func hit(_ bucket: Bucket, key: String, limit: Int, window: TimeInterval, now: Date) throws {
        let id = "\(bucket.rawValue)|\(key)"
        var current = windows[id] ?? Window(start: now, count: 0)
        if now.timeIntervalSince(current.start) >= window {
            current = Window(start: now, count: 0)
        }
        guard current.count < limit else {
            let retry = Int((window - now.timeIntervalSince(current.start)).rounded(.up))
            throw APIError.rateLimited(retryAfter: retry)
        }
        current.count += 1
        windows[id] = current
        if windows.count > 100_000 { windows = windows.filter { now.timeIntervalSince($0.value.start) < window } }
    }

    /// Whether the window is full, without counting.
    func isLimited(_ bucket: Bucket, key: String, limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard let current = windows["\(bucket.rawValue)|\(key)"], now.timeIntervalSince(current.start) < window,
            current.count >= limit
        else { return nil }
        return Int((window - now.timeIntervalSince(current.start)).rounded(.up))
    }
}
