import Foundation
import GatehouseCore

/// JSON text columns.
enum JSONText {
    static func encode(_ value: some Encodable) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode(_ text: String?) -> [String: JSONValue] {
        // Most metadata is empty: no decoder for it.
        guard let text, text != "{}", !text.isEmpty else { return [:] }
        return (try? decoder.decode([String: JSONValue].self, from: Data(text.utf8))) ?? [:]
    }

    /// `JSONDecoder` and `JSONEncoder` are thread-safe once configured; one of each is shared.
    static let decoder = JSONDecoder()

    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
