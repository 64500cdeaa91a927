
/// Statements on one SQLite handle (the writer inside the storage's lock and transaction, or a
/// leased reader). They run synchronously: see ``SQLiteHandle``.
package struct SQLiteExecutor: SQLExecutor {
    package let handle: SQLiteHandle

    package var dialect: SQLDialect { .sqlite }

    package func lock(_ name: Int) async throws {}

    package func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        do {
            return try handle.rows(sql, binds)
        } catch let failure as SQLiteFailure where failure.isUniqueViolation {
            throw SQLError.uniqueViolation
        }
    }
}
