import GatehouseSQLiteSupport
import VaporCSQLite

/// One SQLite connection driven synchronously through SQLite's C API (the library that
/// sqlite-nio bundles), with its prepared statements cached by SQL text.
///
/// Statements run on the calling thread: a read from the page cache takes microseconds, far less
/// than the three thread hops (to a pool thread, to an event loop, back to the task) that an
/// asynchronous driver pays for every statement. The handle is not safe for concurrent use;
/// ``SQLiteStorage`` gives each handle to one caller at a time (the writer under its lock, the
/// readers through ``SQLiteReaderPool``), which is why it can be `@unchecked Sendable`.
package final class SQLiteHandle: @unchecked Sendable {
    /// Statements kept prepared; SQL built at run time beyond this is prepared once per use.
    package static let statementCacheLimit = 128

    private var raw: OpaquePointer?
    private var statements: [String: (OpaquePointer, SQLColumns)] = [:]
    /// Told the log's length after each commit (``reportCommits(to:)``); kept alive here
    /// because SQLite holds only a raw pointer to it.
    private var checkpointer: SQLiteCheckpointer?

    /// Opens (creating if needed) the database at `path` (`:memory:` for a private one).
    package init(path: String) throws {
        _ = Self.initialized
        var handle: OpaquePointer?
        let status = sqlite_nio_sqlite3_open_v2(
            path,
            &handle,
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
            nil
        )
        guard status == SQLITE_OK, let handle else {
            let failure = SQLiteFailure(code: status, message: handle.map(Self.message) ?? "cannot open \(path)")
            sqlite_nio_sqlite3_close(handle)
            throw failure
        }
        raw = handle
        // Plans that do not depend on bound values, so cached statements stay compiled.
        let stable = gatehouse_sqlite_enable_stable_plans(UnsafeMutableRawPointer(handle))
        guard stable == SQLITE_OK else {
            close()
            throw SQLiteFailure(code: stable, message: "cannot turn on stable query plans")
        }
    }

    deinit { close() }

    /// Runs one statement and returns its rows; `?` placeholders take `binds` in order.
    package func rows(_ sql: String, _ binds: [SQLValue] = []) throws -> [SQLRow] {
        let (statement, preparedColumns) = try prepared(sql)
        var columns = preparedColumns
        defer { recycle(statement, columns: columns, sql: sql) }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement))
        }
        var rows: [SQLRow] = []
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status) }
            // A schema change re-prepares the statement; its columns may have changed with it.
            let count = sqlite_nio_sqlite3_column_count(statement)
            if count != columns.names.count { columns = Self.columns(of: statement) }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count {
                values.append(value(at: column, in: statement))
            }
            rows.append(SQLRow(columns: columns, values: values))
        }
    }

    /// Runs statements that return nothing (pragmas, `BEGIN`, `COMMIT`, schema changes).
    package func execute(_ sql: String) throws {
        _ = try rows(sql)
    }

    /// How often SQLite has had to compile the cached statements again (zero while plans are
    /// stable; a diagnostic for tests).
    package var recompilations: Int {
        statements.values.reduce(0) {
            $0 + Int(sqlite_nio_sqlite3_stmt_status($1.0, Int32(SQLITE_STMTSTATUS_REPREPARE), 0))
        }
    }

    /// Whether a transaction is open (`BEGIN` ran and no `COMMIT` or `ROLLBACK` ended it). SQLite
    /// rolls a transaction back by itself after some errors (a full disk, an I/O error).
    package var isInTransaction: Bool {
        guard let raw else { return false }
        return sqlite_nio_sqlite3_get_autocommit(raw) == 0
    }

    /// Reports each commit's write-ahead log length to `checkpointer` (SQLite's WAL hook), which
    /// then decides when the log is checkpointed: SQLite's automatic checkpoint is off from here.
    package func reportCommits(to checkpointer: SQLiteCheckpointer) {
        guard let raw else { return }
        self.checkpointer = checkpointer
        _ = sqlite_nio_sqlite3_wal_hook(
            raw,
            { context, writer, database, pages in
                guard let context else { return SQLITE_OK }
                return Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
                    .observe(walPages: Int(pages), on: writer, database: database)
            },
            Unmanaged.passUnretained(checkpointer).toOpaque()
        )
    }

    /// Finalizes the cached statements and closes the connection (idempotent).
    package func close() {
        for (statement, _) in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements = [:]
        if let raw { sqlite_nio_sqlite3_close(raw) }
        raw = nil
        checkpointer = nil
    }

    // MARK: - Statements

    private func prepared(_ sql: String) throws -> (OpaquePointer, SQLColumns) {
        if let cached = statements.removeValue(forKey: sql) { return cached }
        guard let raw else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed") }
        var statement: OpaquePointer?
        var rest = ""
        let status = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let status = sqlite_nio_sqlite3_prepare_v3(
                raw,
                text,
                -1,
                UInt32(SQLITE_PREPARE_PERSISTENT),
                &statement,
                &tail
            )
            if let tail { rest = String(cString: tail) }
            return status
        }
        guard status == SQLITE_OK, let statement else {
            // An empty statement (only a comment, say) compiles to nothing.
            throw status == SQLITE_OK
                ? SQLiteFailure(code: SQLITE_MISUSE, message: "no statement in: \(sql)") : failure(status)
        }
        // SQLite compiles the first statement only; refuse to drop the others silently.
        guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite_nio_sqlite3_finalize(statement)
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "one statement at a time; left over: \(rest)")
        }
        return (statement, Self.columns(of: statement))
    }

    private static func columns(of statement: OpaquePointer) -> SQLColumns {
        SQLColumns(
            names: (0..<sqlite_nio_sqlite3_column_count(statement)).map {
                String(cString: sqlite_nio_sqlite3_column_name(statement, $0))
            }
        )
    }

    /// Resets a statement for its next use and keeps it, or finalizes it when the cache is full.
    private func recycle(_ statement: OpaquePointer, columns: SQLColumns, sql: String) {
        sqlite_nio_sqlite3_reset(statement)
        sqlite_nio_sqlite3_clear_bindings(statement)
        if statements.count < Self.statementCacheLimit {
            statements[sql] = (statement, columns)
        } else {
            sqlite_nio_sqlite3_finalize(statement)
        }
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .text(let text):
            sqlite_nio_sqlite3_bind_text64(
                statement,
                index,
                text,
                UInt64(text.utf8.count),
                Self.transient,
                UInt8(SQLITE_UTF8)
            )
        case .float(let number): sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .integer(let number): sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func value(at column: Int32, in statement: OpaquePointer) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            .text(
                String(
                    decoding: UnsafeBufferPointer(
                        start: sqlite_nio_sqlite3_column_text(statement, column),
                        count: Int(sqlite_nio_sqlite3_column_bytes(statement, column))
                    ),
                    as: UTF8.self
                )
            )
        default: .null
        }
    }

    // MARK: - Errors

    private func check(_ status: Int32) throws {
        guard status == SQLITE_OK else { throw failure(status) }
    }

    private func failure(_ status: Int32) -> SQLiteFailure {
        SQLiteFailure(code: status, message: raw.map(Self.message) ?? "the connection is closed")
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: sqlite_nio_sqlite3_errmsg(handle))
    }

    /// SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// `sqlite3_initialize` once per process, before the first connection.
    private static let initialized: Void = { _ = sqlite_nio_sqlite3_initialize() }()
}
