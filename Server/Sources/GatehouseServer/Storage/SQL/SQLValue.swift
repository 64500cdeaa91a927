import Foundation

/// A value bound to or read from a statement, the same for SQLite and PostgreSQL: text, a
/// double (timestamps are seconds since 1970), an integer, or NULL.
enum SQLValue: Sendable, Equatable {
    case text(String)
    case float(Double)
    case integer(Int)
    case null

    var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var integer: Int? {
        switch self {
        case .integer(let value): value
        case .float(let value): Int(value)
        default: nil
        }
    }

    var double: Double? {
        switch self {
        case .float(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    static func date(_ date: Date?) -> SQLValue {
        date.map { .float($0.timeIntervalSince1970) } ?? .null
    }
}

/// One result row, by column name.
struct SQLRow: Sendable {
    var values: [String: SQLValue]

    func column(_ name: String) -> SQLValue? { values[name] }

    func date(_ name: String) -> Date? {
        guard let value = column(name), value != .null, let seconds = value.double else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

/// Runs one statement inside the current transaction. SQL uses `?` placeholders.
protocol SQLExecutor: Sendable {
    /// Which SQL this database speaks where the two differ (JSON aggregation).
    var dialect: SQLDialect { get }

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]

    /// Holds a named lock until the transaction ends (PostgreSQL: an advisory lock; SQLite's
    /// transactions are exclusive already).
    func lock(_ name: Int) async throws
}

/// The two databases' SQL, where it differs.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// A scalar subquery giving a user's identities (`users` row in scope) as JSON text.
    var identitiesJSON: String {
        switch self {
        case .sqlite: Self.sqliteIdentitiesJSON
        case .postgres: Self.postgresIdentitiesJSON
        }
    }

    private static let identityFields = [
        "id", "user_id", "provider", "provider_id", "email", "identity_data", "last_sign_in_at", "created_at",
        "updated_at",
    ]

    private static let sqliteIdentitiesJSON = """
        (SELECT json_group_array(json_object(\(identityFields.map { "'\($0)', i.\($0)" }.joined(separator: ", ")))) \
        FROM (SELECT * FROM identities WHERE user_id = users.id ORDER BY created_at, id) i)
        """

    private static let postgresIdentitiesJSON = """
        (SELECT COALESCE(json_agg(json_build_object(\(identityFields.map { "'\($0)', i.\($0)" }.joined(separator: ", ")))
        ORDER BY i.created_at, i.id), '[]')::text FROM identities i WHERE i.user_id = users.id)
        """
}

/// Database errors the storage layer tells apart.
enum SQLError: Error, Equatable {
    /// A unique or primary-key constraint was violated.
    case uniqueViolation
}

extension UUID {
    /// The lowercase text form used as a key.
    var key: String { uuidString.lowercased() }
}
