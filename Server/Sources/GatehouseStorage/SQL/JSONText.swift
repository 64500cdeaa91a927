package import Foundation
package import GatehouseCore

/// JSON text columns.
package enum JSONText {
    package static func encode(_ value: some Encodable) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    package static func decode(_ text: String?) -> [String: JSONValue] {
        // Most metadata is empty: no decoder for it.
        guard let text, text != "{}", !text.isEmpty else { return [:] }
        return (try? decoder.decode([String: JSONValue].self, from: Data(text.utf8))) ?? [:]
    }

    /// `JSONDecoder` and `JSONEncoder` are thread-safe once configured; one of each is shared.
    package static let decoder = JSONDecoder()

    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// The rows of a JSON array of objects, as a user read's aggregated columns hold them
    /// (`identities_json`, `factors_json`); empty for `[]`, `nil` or anything unreadable.
    package static func rows(_ text: String?) -> [SQLRow] {
        // Most users have none: no parse for them.
        guard let text, text != "[]", let data = text.data(using: .utf8),
            let objects = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
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
