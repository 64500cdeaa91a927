import PostgresNIO

/// Statements on one leased PostgreSQL connection inside its transaction: `?` placeholders
/// become `$1…$n`, values are bound (never interpolated), rows are read into ``SQLRow``s.
struct PostgresExecutor: SQLExecutor {
    let connection: PostgresConnection
    let logger: Logger

    var dialect: SQLDialect { .postgres }

    func lock(_ name: Int) async throws {
        _ = try await rows("SELECT pg_advisory_xact_lock(?) AS locked", [.integer(name)])
    }

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .text(let text): bindings.append(text)
            case .float(let double): bindings.append(double)
            case .integer(let integer): bindings.append(integer)
            case .null: bindings.appendNull()
            }
        }
        let query = PostgresQuery(unsafeSQL: Self.numberedPlaceholders(sql), binds: bindings)
        do {
            var result: [SQLRow] = []
            var columns: SQLColumns?
            for try await row in try await connection.query(query, logger: logger) {
                var values: [SQLValue] = []
                var names: [String] = []
                for cell in row {
                    values.append(try Self.value(of: cell))
                    if columns == nil { names.append(cell.columnName) }
                }
                if columns == nil { columns = SQLColumns(names: names) }
                result.append(SQLRow(columns: columns!, values: values))
            }
            return result
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw SQLError.uniqueViolation
        }
    }

    private static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int.self))
        case .float4, .float8, .numeric: return .float(try cell.decode(Double.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        default: return .text(try cell.decode(String.self))
        }
    }

    /// `?` → `$1`, `$2`, … (the shared SQL has no `?` inside literals).
    static func numberedPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.count + 16)
        var index = 0
        for character in sql {
            if character == "?" {
                index += 1
                output += "$\(index)"
            } else {
                output.append(character)
            }
        }
        return output
    }
}
