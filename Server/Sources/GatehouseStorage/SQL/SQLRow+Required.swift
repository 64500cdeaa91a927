package import Foundation
package import GatehouseCore
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

    /// The JSON object in column `name` of `table` (metadata, an identity's data); empty when the
    /// column is NULL, empty or `{}`.
    ///
    /// - Throws: ``StoredValueError`` when it is missing or holds anything but a JSON object.
    package func jsonObject(_ name: String, of table: String) throws -> [String: JSONValue] {
        switch column(name) {
        case .null?: return [:]
        case .text(let text)?:
            // Most metadata is empty: no decoder for it.
            if text.isEmpty || text == "{}" { return [:] }
            if let object = try? JSONText.decoder.decode([String: JSONValue].self, from: Data(text.utf8)) {
                return object
            }
        default: break
        }
        throw unreadable(name, of: table, expected: "a JSON object")
    }

    /// The JSON array of strings in column `name` of `table` (a passkey's transports); empty when
    /// the column is NULL.
    ///
    /// - Throws: ``StoredValueError`` when it is missing or holds anything but an array of strings.
    package func jsonStrings(_ name: String, of table: String) throws -> [String] {
        switch column(name) {
        case .null?: return []
        case .text(let text)?:
            if let list = try? JSONText.decoder.decode([String].self, from: Data(text.utf8)) { return list }
        default: break
        }
        throw unreadable(name, of: table, expected: "a JSON array of strings")
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
