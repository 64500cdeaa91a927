import Foundation
import VaporCSQLite

/// A value the seeder binds.
enum SeedValue {
    case text(String)
    case real(Double)
    case integer(Int)
    case null
}

/// The seeder's SQLite connection: SQLite's C API, no driver, one thread.
final class SeedDatabase {
    private var raw: OpaquePointer?

    init(path: String) throws {
        guard sqlite_nio_sqlite3_open_v2(path, &raw, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw LoadError.unexpected("cannot open \(path)")
        }
    }

    func close() {
        sqlite_nio_sqlite3_close(raw)
        raw = nil
    }

    func execute(_ sql: String) throws {
        guard sqlite_nio_sqlite3_exec(raw, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    /// The indexes of `table` that a statement created (not those of its constraints).
    func indexes(of table: String) throws -> [(name: String, sql: String)] {
        let statement = try prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL"
        )
        defer { statement.finalize() }
        return try statement.rows([.text(table)]).map { ($0[0], $0[1]) }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite_nio_sqlite3_prepare_v2(raw, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return Statement(raw: statement, database: self)
    }

    /// Runs `body` for every index of `range`, committing every 100,000 rows.
    func inBatches(_ range: Range<Int>, _ body: (Int) throws -> Void) throws {
        var index = range.lowerBound
        while index < range.upperBound {
            let end = min(range.upperBound, index + 100_000)
            try execute("BEGIN")
            for row in index..<end { try body(row) }
            try execute("COMMIT")
            index = end
        }
    }

    func failure(_ sql: String) -> LoadError {
        LoadError.unexpected("\(sql.prefix(80)): \(String(cString: sqlite_nio_sqlite3_errmsg(raw)))")
    }

    /// A prepared statement, run again and again with new values.
    struct Statement {
        let raw: OpaquePointer
        let database: SeedDatabase

        func run(_ values: [SeedValue]) throws {
            bind(values)
            defer { sqlite_nio_sqlite3_reset(raw) }
            guard sqlite_nio_sqlite3_step(raw) == SQLITE_DONE else { throw database.failure("insert") }
        }

        /// The rows as text columns.
        func rows(_ values: [SeedValue]) throws -> [[String]] {
            bind(values)
            defer { sqlite_nio_sqlite3_reset(raw) }
            var rows: [[String]] = []
            while sqlite_nio_sqlite3_step(raw) == SQLITE_ROW {
                rows.append(
                    (0..<sqlite_nio_sqlite3_column_count(raw)).map {
                        sqlite_nio_sqlite3_column_text(raw, $0).map { String(cString: $0) } ?? ""
                    }
                )
            }
            return rows
        }

        /// Runs the statement with `values`; what `read` takes from its first row, if any.
        func first<Value>(_ values: [SeedValue], _ read: (OpaquePointer) -> Value) throws -> Value? {
            bind(values)
            defer { sqlite_nio_sqlite3_reset(raw) }
            switch sqlite_nio_sqlite3_step(raw) {
            case SQLITE_ROW: return read(raw)
            case SQLITE_DONE: return nil
            default: throw database.failure("step")
            }
        }

        func finalize() { sqlite_nio_sqlite3_finalize(raw) }

        private func bind(_ values: [SeedValue]) {
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                switch value {
                case .text(let text):
                    sqlite_nio_sqlite3_bind_text(raw, index, text, -1, Self.transient)
                case .real(let number): sqlite_nio_sqlite3_bind_double(raw, index, number)
                case .integer(let number): sqlite_nio_sqlite3_bind_int64(raw, index, Int64(number))
                case .null: sqlite_nio_sqlite3_bind_null(raw, index)
                }
            }
        }

        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}
