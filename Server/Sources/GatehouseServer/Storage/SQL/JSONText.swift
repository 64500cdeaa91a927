import Foundation
import GatehouseCore

/// JSON text columns.
enum JSONText {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode(_ text: String?) -> [String: JSONValue] {
        guard let text else { return [:] }
        return (try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))) ?? [:]
    }
}
