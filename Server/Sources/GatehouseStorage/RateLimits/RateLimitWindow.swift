package import Foundation

/// One window of a bucket: the bucket, its limit and its length, as the server's table of
/// buckets gives them (`RateLimitTable`).
package struct RateLimitWindow: Sendable, Equatable {
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
