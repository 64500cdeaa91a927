import Logging
import PostgresNIO

/// PostgreSQL's write-ahead log position, read at a row's first and last instant: the bytes of
/// WAL the row's requests made the database write. A write that first changes a page after a
/// checkpoint writes the whole page into the log (`full_page_writes`), so on a large table whose
/// index entries land on pages scattered through it, a write costs several pages of log
/// instead of its own rows (issue 35, the million-user rows).
struct WALProbe: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Bytes written to the log since it began, as of now (`pg_current_wal_insert_lsn()`).
    func bytes() async throws -> Int64 {
        let rows = try await client.query(
            "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::int8",
            logger: logger
        )
        for try await position in rows.decode(Int64.self) { return position }
        return 0
    }
}
