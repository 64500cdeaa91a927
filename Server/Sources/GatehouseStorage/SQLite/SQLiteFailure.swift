import VaporCSQLite

/// An error SQLite returned: its extended result code and message.
package struct SQLiteFailure: Error, CustomStringConvertible {
    package let code: Int32
    package let message: String

    /// A `UNIQUE` or `PRIMARY KEY` constraint failed.
    package var isUniqueViolation: Bool {
        code == SQLITE_CONSTRAINT || code == Self.constraintUnique || code == Self.constraintPrimaryKey
    }

    // Extended result codes, which C builds with a macro Swift does not import.
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)

    package var description: String { "SQLite error \(code): \(message)" }
}
