import Crypto
package import Foundation
import GatehouseServerSupport

/// Fixed-window counters in memory: the whole picture for one server on SQLite.
///
/// Each bucket keeps its own map, so a flood of keys in one bucket (new source addresses on
/// `/otp`) never touches another's windows (an account's failed passwords). Within a bucket,
/// windows are queued in the order they opened; each call drops the expired ones at the front
/// of the queue (amortised constant time, never a scan of the map), and a bucket at
/// ``capacity`` forgets its oldest window to admit a new key.
///
/// A key is held as its 128-bit SHA-256 prefix (``KeyDigest``), never as the text a client sent:
/// every window costs the same few dozen bytes however long its key (an e-mail address of 255
/// characters, say), so ``capacity`` bounds the memory, and no address sits in the heap for the
/// window's hour. Buckets are changed in place: a copy of a bucket's map per request would cost
/// time in proportion to its size and leave the heap fragmented under a flood of new keys.
package actor MemoryRateLimiter: RateLimiter {
    /// A key's identity in a bucket: the first 16 bytes of its SHA-256 (two keys share a window
    /// only on a collision of 128 bits).
    package struct KeyDigest: Hashable {
        package let high: UInt64
        package let low: UInt64

        package init(_ key: String) {
            let digest = SHA256.hash(data: Array(key.utf8))
            var high: UInt64 = 0
            var low: UInt64 = 0
            for (index, byte) in digest.prefix(16).enumerated() {
                if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
            }
            self.high = high
            self.low = low
        }
    }

    private struct Window {
        var start: Date
        var count: Int
    }

    private struct Bucket {
        var windows: [KeyDigest: Window] = [:]
        /// Keys in the order their windows opened; an entry whose start no longer matches its
        /// key's window is stale and skipped.
        var order: [(key: KeyDigest, start: Date)] = []
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

        /// Counts one request under `key`; the window's start when it is full.
        mutating func hit(_ key: KeyDigest, limit: Int, window: TimeInterval, now: Date, capacity: Int) -> Date? {
            prune(window: window, now: now)
            var current = windows[key]
            if let open = current, now.timeIntervalSince(open.start) >= window { current = nil }
            if current == nil {
                if windows.count >= capacity { evictOldest() }
                current = Window(start: now, count: 0)
                order.append((key, now))
            }
            guard var current, current.count < limit else { return current?.start ?? now }
            current.count += 1
            windows[key] = current
            return nil
        }

        /// Forgets `key`'s window: a window whose every request was given back holds nothing a
        /// later request needs, so a successful sign-in leaves no window behind.
        mutating func forget(_ key: KeyDigest) {
            windows[key] = nil
            compact()
        }

        /// Keeps the queue in proportion to the live windows: the entries already passed are
        /// dropped, and so are stale ones behind a live window that stays open for a long time
        /// (one failed password's day ahead of a day of forgotten windows), which ``prune``
        /// would only reach once that window expires.
        private mutating func compact() {
            if head > 1024, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
            if order.count - head > 2 * windows.count + 1024 {
                order = order[head...].filter { windows[$0.key]?.start == $0.start }
                head = 0
            }
        }
    }

    /// Keys kept per bucket.
    package let capacity: Int
    private var buckets: [RateLimitBucket: Bucket] = [:]

    package init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    package func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) throws {
        let full = buckets[bucket, default: Bucket()]
            .hit(KeyDigest(key), limit: limit, window: window, now: now, capacity: capacity)
        if let start = full {
            throw APIError.rateLimited(retryAfter: Int((window - now.timeIntervalSince(start)).rounded(.up)))
        }
    }

    package func isLimited(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard let current = buckets[bucket]?.windows[KeyDigest(key)], now.timeIntervalSince(current.start) < window,
            current.count >= limit
        else { return nil }
        return Int((window - now.timeIntervalSince(current.start)).rounded(.up))
    }

    package func release(_ bucket: RateLimitBucket, key: String, window: TimeInterval, now: Date) {
        let digest = KeyDigest(key)
        guard let current = buckets[bucket]?.windows[digest], now.timeIntervalSince(current.start) < window,
            current.count > 0
        else { return }
        if current.count == 1 {
            buckets[bucket]?.forget(digest)
        } else {
            buckets[bucket]?.windows[digest]?.count -= 1
        }
    }

    /// Keys held in `bucket` (tests).
    package func count(_ bucket: RateLimitBucket) -> Int {
        buckets[bucket]?.windows.count ?? 0
    }

    /// Entries of `bucket`'s queue, stale ones included (tests: the queue is bounded too).
    package func queued(_ bucket: RateLimitBucket) -> Int {
        guard let state = buckets[bucket] else { return 0 }
        return state.order.count - state.head
    }
}
