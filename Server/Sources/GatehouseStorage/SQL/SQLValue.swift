package import Foundation

/// A value bound to or read from a statement, the same for SQLite and PostgreSQL: text, a
/// double (timestamps are seconds since 1970), an integer, or NULL.
package enum SQLValue: Sendable, Equatable {
    case text(String)
    case float(Double)
    case integer(Int)
    case null

    package var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var integer: Int? {
        switch self {
        case .integer(let value): value
        case .float(let value): Int(value)
        default: nil
        }
    }

    package var double: Double? {
        switch self {
        case .float(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    package static func date(_ date: Date?) -> SQLValue {
        date.map { .float($0.timeIntervalSince1970) } ?? .null
    }
}

/// One result row, read by column name.
package struct SQLRow: Sendable {
    /// Column positions by name, shared by every row of one result.
    package let columns: SQLColumns
    package var values: [SQLValue]

    package init(columns: SQLColumns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// A row from name–value pairs (a JSON object read back from a column).
    package init(values: [String: SQLValue]) {
        let names = Array(values.keys)
        self.init(columns: SQLColumns(names: names), values: names.map { values[$0]! })
    }

    package func column(_ name: String) -> SQLValue? {
        columns.position[name].map { values[$0] }
    }

    package func date(_ name: String) -> Date? {
        guard let value = column(name), value != .null, let seconds = value.double else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

/// The column names of a result and their positions: built once per result (SQLite: once per
/// cached statement), so a row costs an array of values, not a dictionary.
package final class SQLColumns: Sendable {
    package let names: [String]
    package let position: [String: Int]

    package init(names: [String]) {
        self.names = names
        // The first of two same-named columns wins, as a lookup by name in SQL would.
        position = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Runs one statement inside the current transaction. SQL uses `?` placeholders.
package protocol SQLExecutor: Sendable {
    /// Which SQL this database speaks where the two differ (JSON aggregation).
    var dialect: SQLDialect { get }

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]

    /// Holds a named lock until the transaction ends (PostgreSQL: an advisory lock; SQLite's
    /// transactions are exclusive already).
    func lock(_ name: Int) async throws
}

/// The two databases' SQL, where it differs.
package enum SQLDialect: Sendable {
    case sqlite, postgres

    /// A scalar subquery giving a user's identities (`users` row in scope) as JSON text.
    package var identitiesJSON: String {
        switch self {
        case .sqlite: Self.sqliteIdentitiesJSON
        case .postgres: Self.postgresIdentitiesJSON
        }
    }

    /// A scalar subquery giving a user's factors (`users` row in scope) as JSON text, without
    /// their secrets.
    package var factorsJSON: String {
        switch self {
        case .sqlite: Self.sqliteFactorsJSON
        case .postgres: Self.postgresFactorsJSON
        }
    }

    private static let factorFields = [
        "id", "user_id", "friendly_name", "factor_type", "status", "created_at", "updated_at", "last_challenged_at",
        "enrolled_session_id",
    ]

    private static let sqliteFactorsJSON = """
        (SELECT json_group_array(json_object(\(factorFields.map { "'\($0)', f.\($0)" }.joined(separator: ", ")))) \
        FROM (SELECT * FROM mfa_factors WHERE user_id = users.id ORDER BY created_at, id) f)
        """

    private static let postgresFactorsJSON = """
        (SELECT COALESCE(json_agg(json_build_object(\(factorFields.map { "'\($0)', f.\($0)" }.joined(separator: ", ")))
        ORDER BY f.created_at, f.id), '[]')::text FROM mfa_factors f WHERE f.user_id = users.id)
        """

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
package enum SQLError: Error, Equatable {
    /// A unique or primary-key constraint was violated.
    case uniqueViolation
}
