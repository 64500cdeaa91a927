package import Foundation
import GatehouseServerSupport
package import Logging
package import PostgresNIO

/// Rate-limit windows in PostgreSQL's `rate_limits` table (UNLOGGED: its commits wait for no
/// disk flush), one atomic upsert per request, so every instance counts against the same limit;
/// the busiest buckets add their hits in batches instead (``add(_:)``, ``BatchedRateLimiter``).
/// Every statement is a named prepared statement, parsed once per connection.
package struct PostgresRateLimiter: RateLimiter {
    /// The pool, and its wait for a connection (``PostgresStorage/leased(_:)``).
    package let storage: PostgresStorage
    package var logger: Logger { storage.logger }

    /// Counts one request in the window of `id` (a new window when the old one has passed) and
    /// returns the window's start and count; the count stops at `cap`. A new window records
    /// when it closes (`window_end`), which is when the background sweep may delete it.
    package struct Hit: PostgresPreparedStatement {
        package static let name = "gh_rate_limit_hit_v2"
        package static let sql = """
            INSERT INTO rate_limits (id, window_start, window_end, count) VALUES ($1, $2, $5, 1)
            ON CONFLICT (id) DO UPDATE SET
                window_start = CASE WHEN rate_limits.window_start <= $3
                    THEN excluded.window_start ELSE rate_limits.window_start END,
                window_end = CASE WHEN rate_limits.window_start <= $3
                    THEN excluded.window_end ELSE rate_limits.window_end END,
                count = CASE WHEN rate_limits.window_start <= $3
                    THEN 1 ELSE LEAST(rate_limits.count + 1, $4) END
            RETURNING window_start, count
            """
        package static let bindingDataTypes: [PostgresDataType] = [.text, .float8, .float8, .int8, .float8]
        package typealias Row = (Double, Int)

        package var id: String
        package var now: Double
        package var windowOpenedBefore: Double
        package var cap: Int
        package var windowEnd: Double

        package func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(id)
            bindings.append(now)
            bindings.append(windowOpenedBefore)
            bindings.append(cap)
            bindings.append(windowEnd)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The window of `id` if it opened after `windowOpenedAfter`: its start and count.
    package struct Window: PostgresPreparedStatement {
        package static let name = "gh_rate_limit_window"
        package static let sql = "SELECT window_start, count FROM rate_limits WHERE id = $1 AND window_start > $2"
        package static let bindingDataTypes: [PostgresDataType] = [.text, .float8]
        package typealias Row = (Double, Int)

        package var id: String
        package var windowOpenedAfter: Double

        package func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(id)
            bindings.append(windowOpenedAfter)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Takes back one request of a window still open; a window given back to nothing goes, so
    /// that a successful sign-in leaves no row for the day. One statement: the delete and the
    /// update see the same row and their conditions exclude each other.
    package struct Release: PostgresPreparedStatement {
        package static let name = "gh_rate_limit_release"
        package static let sql = """
            WITH gone AS (
                DELETE FROM rate_limits WHERE id = $1 AND window_start > $2 AND count = 1 RETURNING 0 AS count
            ), lowered AS (
                UPDATE rate_limits SET count = count - 1 WHERE id = $1 AND window_start > $2 AND count > 1
                RETURNING count
            )
            SELECT count FROM gone UNION ALL SELECT count FROM lowered
            """
        package static let bindingDataTypes: [PostgresDataType] = [.text, .float8]
        package typealias Row = Int

        package var id: String
        package var windowOpenedAfter: Double

        package func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(id)
            bindings.append(windowOpenedAfter)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int.self) }
    }

    /// The windows of `ids`: their ids, starts and counts.
    package struct Windows: PostgresPreparedStatement {
        package static let name = "gh_rate_limit_windows"
        package static let sql = "SELECT id, window_start, count FROM rate_limits WHERE id = ANY($1)"
        package static let bindingDataTypes: [PostgresDataType] = [.textArray]
        package typealias Row = (String, Double, Int)

        package var ids: [String]

        package func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(ids)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Adds several windows' hits in one statement (``BatchedRateLimiter``): a window that has
    /// closed by the batch's time opens anew with the batch's count. Returns each window's id,
    /// start and count after the addition.
    package struct AddHits: PostgresPreparedStatement {
        package static let name = "gh_rate_limit_add_hits"
        package static let sql = """
            INSERT INTO rate_limits (id, window_start, window_end, count)
            SELECT * FROM unnest($1::text[], $2::float8[], $3::float8[], $4::int8[])
            ON CONFLICT (id) DO UPDATE SET
                window_start = CASE WHEN rate_limits.window_end <= excluded.window_start
                    THEN excluded.window_start ELSE rate_limits.window_start END,
                window_end = CASE WHEN rate_limits.window_end <= excluded.window_start
                    THEN excluded.window_end ELSE rate_limits.window_end END,
                count = CASE WHEN rate_limits.window_end <= excluded.window_start
                    THEN excluded.count ELSE LEAST(rate_limits.count + excluded.count, 2147483647) END
            RETURNING id, window_start, count
            """
        package static let bindingDataTypes: [PostgresDataType] = [.textArray, .float8Array, .float8Array, .int8Array]
        package typealias Row = (String, Double, Int)

        package var additions: [HitTally.Addition]

        package func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(additions.map(\.id))
            bindings.append(additions.map(\.at))
            bindings.append(additions.map { $0.at + $0.window })
            bindings.append(additions.map(\.count))
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Writes `additions` in one statement; each window's start and count after it, by id.
    package func add(_ additions: [HitTally.Addition]) async throws -> [String: (start: Double, count: Int)] {
        var answers: [String: (start: Double, count: Int)] = [:]
        guard !additions.isEmpty else { return answers }
        for (id, start, count) in try await rows(AddHits(additions: additions)) {
            answers[id] = (start, count)
        }
        return answers
    }

    package func hit(_ bucket: RateLimitBucket, key: String, limit: Int, window: TimeInterval, now: Date) async throws {
        let seconds = now.timeIntervalSince1970
        let statement = Hit(
            id: bucket.windowID(key),
            now: seconds,
            windowOpenedBefore: seconds - window,
            cap: limit >= Int(Int32.max) ? Int(Int32.max) : limit + 1,
            windowEnd: seconds + window
        )
        for (start, count) in try await rows(statement) where count > limit {
            throw APIError.rateLimited(retryAfter: Int((window - (seconds - start)).rounded(.up)))
        }
    }

    package func isLimited(
        _ bucket: RateLimitBucket,
        key: String,
        limit: Int,
        window: TimeInterval,
        now: Date
    ) async throws
        -> Int?
    {
        let seconds = now.timeIntervalSince1970
        let statement = Window(id: bucket.windowID(key), windowOpenedAfter: seconds - window)
        for (start, count) in try await rows(statement) where count >= limit {
            return Int((window - (seconds - start)).rounded(.up))
        }
        return nil
    }

    package func release(_ bucket: RateLimitBucket, key: String, window: TimeInterval, now: Date) async throws {
        _ = try await rows(Release(id: bucket.windowID(key), windowOpenedAfter: now.timeIntervalSince1970 - window))
    }

    package func isLimited(_ windows: [RateLimitWindow], key: String, now: Date) async throws -> [Int?] {
        let seconds = now.timeIntervalSince1970
        var found: [String: (start: Double, count: Int)] = [:]
        let ids = windows.map { $0.bucket.windowID(key) }
        for (id, start, count) in try await rows(Windows(ids: ids)) {
            found[id] = (start, count)
        }
        return zip(windows, ids).map { window, id in
            guard let (start, count) = found[id], start > seconds - window.window, count >= window.limit else {
                return nil
            }
            return Int((window.window - (seconds - start)).rounded(.up))
        }
    }

    /// The rows of `statement`, run on a pooled connection within the connection wait.
    private func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        let (client, logger) = (storage.client, logger)
        return try await storage.leased { wait in
            try await client.withConnection { connection in
                try wait.leased()
                var rows: [Statement.Row] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            }
        }
    }
}
