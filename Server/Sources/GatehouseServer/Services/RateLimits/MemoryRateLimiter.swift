import Foundation

/// Fixed-window counters in memory: the whole picture for one server on SQLite.
///
/// Each bucket keeps its own map, so a flood of keys in one bucket (new source addresses on
/// `/otp`) never touches another's windows (an account's failed passwords). Within a bucket,
/// windows are queued in the order they opened; each call drops the expired ones at the front
/// of the queue (amortised constant time, never a scan of the map), and a bucket at
/// ``capacity`` forgets its oldest window to admit a new key.
actor MemoryRateLimiter: RateLimiter {
    private struct Window {
        var start: Date
        var count: Int
    }

    private struct Bucket {
        var windows: [String: Window] = [:]
        /// Keys in the order their windows opened; an entry whose start no longer matches its
        /// key's window is stale and skipped.
        var order: [(key: String, start: Date)] = []
        var head = 0

        /// Drops windows that have expired from the front of the queue.
        mutating func prune(window: TimeInterval, now: Date) {
            while head < order.count {
                let (key, start) = order[head]
                if let current = windows[key], current.start == start {
                    guard now.timeIntervalSince(start) >= window else { break }
                    windows[key] = nil
                }
                head += 1
            }
            compact()
        }

        /// Forgets the oldest live window.
        mutating func evictOldest() {
            while head < order.count {
                let (key, start) = order[head]
                head += 1
                if windows[key]?.start == start {
                    windows[key] = nil
                    break
                }
            }
            compact()
        }

        private mutating func compact() {
            if head > 1024, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    /// Keys kept per bucket.
    let capacity: Int
    private var buckets: [RateLimitBucket: Bucket] = [:]

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) throws {
        var state = buckets[bucket] ?? Bucket()
        defer { buckets[bucket] = state }
        state.prune(window: window, now: now)
        var current = state.windows[key]
        if let open = current, now.timeIntervalSince(open.start) >= window { current = nil }
        if current == nil {
            if state.windows.count >= capacity { state.evictOldest() }
            current = Window(start: now, count: 0)
            state.order.append((key, now))
        }
        guard var current, current.count < limit else {
            let start = current?.start ?? now
            throw APIError.rateLimited(retryAfter: Int((window - now.timeIntervalSince(start)).rounded(.up)))
        }
        current.count += 1
        state.windows[key] = current
    }

    func isLimited(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard let current = buckets[bucket]?.windows[key], now.timeIntervalSince(current.start) < window,
            current.count >= limit
        else { return nil }
        return Int((window - now.timeIntervalSince(current.start)).rounded(.up))
    }

    /// Keys held in `bucket` (tests).
    func count(_ bucket: RateLimitBucket) -> Int {
        buckets[bucket]?.windows.count ?? 0
    }
}
