import GatehouseServerSupport
package import PostgresNIO
import Synchronization

/// Statements on one leased PostgreSQL connection (inside its transaction, or a read): values
/// are bound (never interpolated), rows are read into ``SQLRow``s. Each statement runs as a
/// named prepared statement (``PostgresStatement``), parsed and planned once per connection.
///
/// After a statement fails, the rest of this executor's statements run unnamed: inside a
/// transaction PostgreSQL refuses every statement until the rollback, and a statement first
/// prepared then would stay refused on the connection (PostgresNIO remembers a failed
/// preparation by name).
package struct PostgresExecutor: SQLExecutor {
    package let connection: PostgresConnection
    package let logger: Logger
    private let failed = FailureFlag()

    package init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    package var dialect: SQLDialect { .postgres }

    package func lock(_ name: Int) async throws {
        _ = try await rows("SELECT pg_advisory_xact_lock(?) AS locked", [.integer(name)])
    }

    package func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .text(let text): bindings.append(text)
            case .float(let double): bindings.append(double)
            case .integer(let integer): bindings.append(integer)
            case .null: bindings.appendNull()
            }
        }
        do {
            if !failed.isSet, let statement = PostgresStatement.named(sql, types: binds.map(\.postgresType)) {
                let known = Self.knownColumns.withLock { $0[statement.name] }
                let (rows, columns) = try await Self.collect(
                    try await connection.execute(statement, bindings, logger: logger),
                    known: known
                )
                if known == nil, let columns { Self.knownColumns.withLock { $0[statement.name] = columns } }
                return rows
            }
            let query = PostgresQuery(unsafeSQL: PostgresStatement.numberedPlaceholders(sql), binds: bindings)
            return try await Self.collect(try await connection.query(query, logger: logger), known: nil).rows
        } catch let error as PSQLError {
            failed.set()
            if error.serverInfo?[.sqlState] == "23505" { throw SQLError.uniqueViolation }
            throw error
        } catch {
            failed.set()
            throw error
        }
    }

    /// The columns of each named statement's rows, by name, from its first result: one
    /// name-to-position table per statement, not one per result (issue 35). A result whose
    /// names differ (the schema changed under a new connection) gets a table of its own.
    private static let knownColumns = Mutex<[String: SQLColumns]>([:])

    private static func collect(
        _ rows: some AsyncSequence<PostgresRow, any Error>,
        known: SQLColumns?
    ) async throws -> (rows: [SQLRow], columns: SQLColumns?) {
        var result: [SQLRow] = []
        var columns: SQLColumns?
        for try await row in rows {
            var values: [SQLValue] = []
            values.reserveCapacity(columns?.names.count ?? known?.names.count ?? 16)
            var names: [String] = []
            for cell in row {
                values.append(try value(of: cell))
                if columns == nil { names.append(cell.columnName) }
            }
            if columns == nil { columns = known?.names == names ? known : SQLColumns(names: names) }
            result.append(SQLRow(columns: columns!, values: values))
        }
        return (result, columns)
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

    /// Set once a statement of this executor has failed.
    private final class FailureFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }
}

extension SQLValue {
    /// The type a value is bound as (a `NULL` is untyped: PostgreSQL infers it).
    package var postgresType: PostgresDataType {
        switch self {
        case .text: .text
        case .float: .float8
        case .integer: .int8
        case .null: .null
        }
    }
}
