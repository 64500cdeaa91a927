package import Foundation
import GatehouseStorage
import Synchronization

/// How many requests this instance refused by rate limit since it started, per bucket: the
/// console's overview shows it beside the metrics (which count the same refusals for an
/// exporter). Kept in memory only: a refusal must never cost a database write, or a flood of
/// refused requests would become a flood of writes.
package final class RateLimitRefusals: Sendable {
    /// When counting began (the instance's start).
    package let since: Date
    private let counts = Mutex<[String: Int]>([:])

    init(since: Date) {
        self.since = since
    }

    /// Counts one refusal in `bucket`.
    func count(_ bucket: RateLimitBucket) {
        counts.withLock { $0[bucket.rawValue, default: 0] += 1 }
    }

    /// The refusals per bucket name, busiest first.
    package var byBucket: [(bucket: String, count: Int)] {
        counts.withLock { $0 }.map { (bucket: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.bucket) > ($1.count, $0.bucket) }
    }
}
