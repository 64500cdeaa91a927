package import Foundation
package import GatehouseCore
import GatehouseServerSupport

/// JSON text columns.
package enum JSONText {
    package static func encode(_ value: some Encodable) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Metadata (a user's, an identity's), keys sorted, written directly rather than through
    /// `JSONEncoder`, whose setup and boxing of every value cost a sign-up 3 % of its CPU
    /// (issue 35); `{}` for a number JSON cannot hold, as before.
    package static func encode(_ members: [String: JSONValue]) -> String {
        var json = JSONBytes(capacity: 64, sortsKeys: true)
        do { try json.object(members) } catch { return "{}" }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// `JSONDecoder` and `JSONEncoder` are thread-safe once configured; one of each is shared.
    package static let decoder = JSONDecoder()

    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// The rows of a JSON array of objects, as a user read's aggregated columns hold them
    /// (`identities_json`, `factors_json`); empty for `[]` or NULL.
    ///
    /// - Throws: ``StoredValueError`` naming `column` when the text is not an array of objects.
    package static func rows(_ text: String?, column: String) throws -> [SQLRow] {
        // Most users have none: no parse for them.
        guard let text, text != "[]" else { return [] }
        guard let objects = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] else {
            throw StoredValueError(column: column, value: String(text.prefix(200)), expected: "a JSON array of objects")
        }
        return objects.map { object in
            var values: [String: SQLValue] = [:]
            for (name, value) in object {
                switch value {
                case let text as String: values[name] = .text(text)
                case let number as NSNumber: values[name] = .float(number.doubleValue)
                default: values[name] = .null
                }
            }
            return SQLRow(values: values)
        }
    }
}
