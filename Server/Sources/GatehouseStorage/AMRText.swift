import Foundation
import GatehouseServerSupport

/// A session's `amr` column: the JSON text ``text(_:)`` writes for `[AMREntry]`
/// (`[{"method":"password","timestamp":1732000000}]`), read on every authenticated request.
package enum AMRText {
    /// The entries of `text`: the shape the server writes is read directly, anything else
    /// (escapes, other spacing, other keys) by the JSON decoder; `[]` for no column.
    ///
    /// - Throws: ``StoredValueError`` when `text` is not a list of entries, or names a method
    ///   this server does not know (never dropped: the session's tokens would lose it).
    package static func entries(_ text: String?) throws -> [AMREntry] {
        guard let text else { return [] }
        if let entries = plain(text) { return entries }
        let stored: [StoredEntry]
        do {
            stored = try JSONText.decoder.decode([StoredEntry].self, from: Data(text.utf8))
        } catch {
            throw StoredValueError(column: column, value: text, expected: "a JSON list of methods and timestamps")
        }
        return try stored.map {
            AMREntry(
                method: try StoredValueError.decode($0.method, as: AuthenticationMethod.self, column: column),
                timestamp: $0.timestamp,
                provider: $0.provider
            )
        }
    }

    /// The column's text for `entries`: what `JSONText.encode` wrote for them (keys sorted,
    /// `provider` only when there is one), written directly, since every new session and every
    /// step up to AAL2 writes one (issue 35).
    package static func text(_ entries: [AMREntry]) -> String {
        var json = JSONBytes(capacity: 48 * entries.count + 2)
        json.beginArray()
        for entry in entries {
            json.beginObject()
            json.key("method")
            json.string(entry.method.rawValue)
            if let provider = entry.provider {
                json.key("provider")
                json.string(provider.rawValue)
            }
            json.key("timestamp")
            json.integer(entry.timestamp)
            json.endObject()
        }
        json.endArray()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static let column = "sessions.amr"

    /// An entry as stored, its method not yet checked.
    private struct StoredEntry: Decodable {
        var method: String
        var timestamp: Int
        var provider: AuthProvider?
    }

    /// `[` `{"method":"…","timestamp":…}` (`,` …)* `]` with a known method (of letters, digits,
    /// `_` or `-`) and a timestamp of at most 18 digits; `nil` for anything else.
    package static func plain(_ text: String) -> [AMREntry]? {
        var text = text
        return text.withUTF8 { plain(utf8: $0[...]) }
    }

    /// ``plain(_:)`` on the text's bytes in memory (a refresh reads this column: walking the
    /// string's own view cost about 5 µs of it, issue 35).
    private static func plain(utf8 bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [AMREntry]? {
        var utf8 = bytes
        func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            let matches = literal.withUTF8Buffer { utf8.starts(with: $0) }
            if matches { utf8 = utf8.dropFirst(count) }
            return matches
        }
        guard take("[") else { return nil }
        var entries: [AMREntry] = []
        if take("]") { return utf8.isEmpty ? entries : nil }
        repeat {
            guard take(#"{"method":""#) else { return nil }
            let method = utf8.prefix(while: isMethodByte)
            utf8 = utf8.dropFirst(method.count)
            guard take(#"","timestamp":"#) else { return nil }
            let negative = take("-")
            let digits = utf8.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty, digits.count <= 18, digits.count == 1 || digits.first != UInt8(ascii: "0") else {
                return nil
            }
            utf8 = utf8.dropFirst(digits.count)
            let magnitude = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard take("}"), let known = AuthenticationMethod(rawValue: String(decoding: method, as: UTF8.self)) else {
                return nil
            }
            entries.append(AMREntry(method: known, timestamp: negative ? -magnitude : magnitude))
        } while take(",")
        guard take("]"), utf8.isEmpty else { return nil }
        return entries
    }

    private static func isMethodByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
