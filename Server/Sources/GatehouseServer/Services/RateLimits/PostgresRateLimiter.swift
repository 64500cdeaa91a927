import Foundation
import Logging
import PostgresNIO

/// Rate-limit windows in PostgreSQL's `rate_limits` table, one atomic upsert per request, so
/// every instance counts against the same limit.
struct PostgresRateLimiter: RateLimiter {
    let client: PostgresClient
    let logger: Logger

    func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) async throws {
        let id = "\(bucket.rawValue)|\(key)"
        let seconds = now.timeIntervalSince1970
        let cap = limit >= Int(Int32.max) ? Int(Int32.max) : limit + 1
        let rows = try await client.query(
            """
            INSERT INTO rate_limits (id, window_start, count) VALUES (\(id), \(seconds), 1)
            ON CONFLICT (id) DO UPDATE SET
                window_start = CASE WHEN rate_limits.window_start <= \(seconds - window)
                    THEN excluded.window_start ELSE rate_limits.window_start END,
                count = CASE WHEN rate_limits.window_start <= \(seconds - window)
                    THEN 1 ELSE LEAST(rate_limits.count + 1, \(cap)) END
            RETURNING window_start, count
            """,
            logger: logger
        )
        for try await (start, count) in rows.decode((Double, Int).self) where count > limit {
            throw APIError.rateLimited(retryAfter: Int((window - (seconds - start)).rounded(.up)))
        }
    }

    func isLimited(
        _ bucket: RateLimitBucket,
        key: String,
        limit: Int,
        window: TimeInterval,
        now: Date
    ) async throws
        -> Int?
    {
        let id = "\(bucket.rawValue)|\(key)"
        let seconds = now.timeIntervalSince1970
        let rows = try await client.query(
            "SELECT window_start, count FROM rate_limits WHERE id = \(id) AND window_start > \(seconds - window)",
            logger: logger
        )
        for try await (start, count) in rows.decode((Double, Int).self) where count >= limit {
            return Int((window - (seconds - start)).rounded(.up))
        }
        return nil
    }
}
