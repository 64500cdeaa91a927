import VaporCSQLite

/// An error SQLite returned: its extended result code and message.
struct SQLiteFailure: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    /// A `UNIQUE` or `PRIMARY KEY` constraint failed.
    var isUniqueViolation: Bool {
        code == SQLITE_CONSTRAINT || code == Self.constraintUnique || code == Self.constraintPrimaryKey
    }

    // Extended result codes, which C builds with a macro Swift does not import.
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)

    var description: String { "SQLite error \(code): \(message)" }
}
