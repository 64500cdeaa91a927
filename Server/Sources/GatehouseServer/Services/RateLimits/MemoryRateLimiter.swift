import Foundation

/// Fixed-window counters in memory: the whole picture for one server on SQLite.
actor MemoryRateLimiter: RateLimiter {
    private struct Window {
        var start: Date
        var count: Int
    }

    private var windows: [String: Window] = [:]

    func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) throws {
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

    func isLimited(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard let current = windows["\(bucket.rawValue)|\(key)"], now.timeIntervalSince(current.start) < window,
            current.count >= limit
        else { return nil }
        return Int((window - now.timeIntervalSince(current.start)).rounded(.up))
    }
}
