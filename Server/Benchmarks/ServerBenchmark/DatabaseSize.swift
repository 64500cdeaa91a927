import Foundation
import Logging
import PostgresNIO

/// How many bytes a benchmark database takes: SQLite's file with its WAL; PostgreSQL's
/// `pg_database_size`.
struct DatabaseSize {
    let database: BenchDatabase
    /// The SQLite path (`GATEHOUSE_DATABASE_URL`).
    let url: String
    let logger: Logger

    func bytes() async throws -> Int64 {
        if let client = database.client {
            let rows = try await client.query("SELECT pg_database_size(current_database())", logger: logger)
            for try await size in rows.decode(Int64.self) { return size }
            return 0
        }
        return [url, url + "-wal"].reduce(0) { total, path in
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            return total + size
        }
    }
}
