/// Where the database lives: the server's `GATEHOUSE_DATABASE_URL`.
public enum DatabaseLocation: Sendable, Equatable {
    /// A SQLite file.
    case sqliteFile(String)
    /// An in-memory SQLite database (tests).
    case sqliteMemory
    /// A PostgreSQL database, shared by several server instances.
    case postgres(PostgresSettings)
}

extension DatabaseLocation: CustomStringConvertible, CustomDebugStringConvertible {
    /// The database without its password.
    public var description: String {
        switch self {
        case .sqliteFile(let path): "sqlite:\(path)"
        case .sqliteMemory: "sqlite::memory:"
        case .postgres(let settings): settings.description
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }
}
