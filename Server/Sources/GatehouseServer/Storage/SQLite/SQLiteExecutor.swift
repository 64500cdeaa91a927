import SQLiteNIO

/// Statements on the SQLite connection (inside the storage's lock and transaction).
struct SQLiteExecutor: SQLExecutor {
    let connection: SQLiteConnection

    var dialect: SQLDialect { .sqlite }

    func lock(_ name: Int) async throws {}

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let data: [SQLiteData] = binds.map {
            switch $0 {
            case .text(let value): .text(value)
            case .float(let value): .float(value)
            case .integer(let value): .integer(value)
            case .null: .null
            }
        }
        do {
            return try await connection.query(sql, data).map { row in
                var values: [String: SQLValue] = [:]
                for column in row.columns {
                    switch column.data {
                    case .text(let value): values[column.name] = .text(value)
                    case .float(let value): values[column.name] = .float(value)
                    case .integer(let value): values[column.name] = .integer(value)
                    case .blob, .null: values[column.name] = .null
                    }
                }
                return SQLRow(values: values)
            }
        } catch let error as SQLiteError
            where error.reason == .constraint || error.reason == .constraintUniqueFailed
            || error.reason == .constraintPrimaryKeyFailed
        {
            throw SQLError.uniqueViolation
        }
    }
}
