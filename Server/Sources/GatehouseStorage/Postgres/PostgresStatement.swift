package import PostgresNIO
import Synchronization

/// One of the shared statements as PostgreSQL runs it: `?` placeholders numbered `$1…$n`,
/// and a name under which each connection prepares it once (parsed and planned once, then
/// only bound and executed).
///
/// The name stands for the SQL text *and* the parameter types (a `NULL` is untyped), so that
/// a prepared statement is always bound with the types it was prepared with, as an unnamed
/// statement is. Names are given out once per process, in order, from a registry that never
/// holds more than ``capacity`` statements (the server's statements are a fixed set; beyond
/// that, statements run unnamed).
package struct PostgresStatement: Sendable, Hashable {
    /// The statement's name on every connection of this process (`gh_1`, `gh_2`, …).
    package let name: String
    /// The SQL with numbered placeholders.
    package let sql: String
    /// The parameter types it is prepared with.
    package let types: [PostgresDataType]

    package static let capacity = 2_000

    private struct Key: Hashable {
        var sql: String
        var types: [PostgresDataType]
    }

    private static let registry = Mutex<[Key: PostgresStatement]>([:])

    /// The named statement for `sql` with parameters of `types`, or `nil` when the registry is full.
    package static func named(_ sql: String, types: [PostgresDataType]) -> PostgresStatement? {
        let key = Key(sql: sql, types: types)
        return registry.withLock { statements in
            if let known = statements[key] { return known }
            guard statements.count < capacity else { return nil }
            let statement = PostgresStatement(
                name: "gh_\(statements.count + 1)",
                sql: numberedPlaceholders(sql),
                types: types
            )
            statements[key] = statement
            return statement
        }
    }

    /// `?` → `$1`, `$2`, … (the shared SQL has no `?` inside literals).
    package static func numberedPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
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

/// PostgresNIO prepares statements by their type's static `name` and `sql`; the shared SQL
/// arrives as a value, so this one type reads them from a task-local ``PostgresStatement``
/// set around the call (``PostgresConnection/execute(_:_:logger:)``), which PostgresNIO reads
/// before its first suspension and again, in the same task, to describe an error.
package struct SharedPreparedStatement: PostgresPreparedStatement {
    @TaskLocal package static var current: PostgresStatement?

    package static var name: String { current?.name ?? "" }
    package static var sql: String { current?.sql ?? "" }
    package static var bindingDataTypes: [PostgresDataType] { current?.types ?? [] }

    package let bindings: PostgresBindings

    package func makeBindings() throws -> PostgresBindings { bindings }

    package func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresConnection {
    /// Runs `statement` with `bindings`, preparing it on this connection the first time.
    package func execute(
        _ statement: PostgresStatement,
        _ bindings: PostgresBindings,
        logger: Logger
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow> {
        try await SharedPreparedStatement.$current.withValue(statement) {
            try await execute(SharedPreparedStatement(bindings: bindings), logger: logger)
        }
    }
}
