package import Foundation
import GatehouseServerSupport

/// The columns a record cannot do without, read so that a row that lacks one, or holds
/// something else, throws ``StoredValueError`` (naming the table, the column and the value)
/// instead of reading as a made-up id, an empty text or 1970: a corrupt row fails its request
/// with a server error, never answers for someone else.
extension SQLRow {
    /// The id in column `name` of `table`.
    ///
    /// - Throws: ``StoredValueError`` when it is missing, NULL or not a UUID.
    package func uuid(_ name: String, of table: String) throws -> UUID {
        guard let text = column(name)?.string, let id = UUID(text: text) else {
            throw unreadable(name, of: table, expected: "a UUID")
        }
        return id
    }

    /// The text in column `name` of `table` (it may be empty where the column allows).
    ///
    /// - Throws: ``StoredValueError`` when it is missing, NULL or not text.
    package func text(_ name: String, of table: String) throws -> String {
        guard let text = column(name)?.string else { throw unreadable(name, of: table, expected: "text") }
        return text
    }

    /// The time in column `name` of `table` (seconds since 1970).
    ///
    /// - Throws: ``StoredValueError`` when it is missing, NULL or not a number.
    package func date(_ name: String, of table: String) throws -> Date {
        guard let date = date(name) else { throw unreadable(name, of: table, expected: "a time in seconds") }
        return date
    }

    /// The integer in column `name` of `table`.
    ///
    /// - Throws: ``StoredValueError`` when it is missing, NULL or not a number.
    package func integer(_ name: String, of table: String) throws -> Int {
        guard let value = column(name)?.integer else { throw unreadable(name, of: table, expected: "an integer") }
        return value
    }

    /// The error for column `name` of `table`, which should hold `expected`.
    private func unreadable(_ name: String, of table: String, expected: String) -> StoredValueError {
        let value: String =
            switch column(name) {
            case .text(let text): text
            case .integer(let number): String(number)
            case .float(let number): String(number)
            case .null: "NULL"
            case nil: "nothing (no such column)"
            }
        return StoredValueError(column: "\(table).\(name)", value: value, expected: expected)
    }
}
