import Foundation
import GatehouseCore
import GatehouseStorage

/// One record of an export, read with `JSONSerialization` (fast enough for 100,000 users),
/// with typed accessors for the shapes the services write: numbers as numbers or strings,
/// times as ISO 8601 text or milliseconds, nested JSON as objects or as text.
struct ExportRecord {
    let fields: [String: Any]

    func string(_ key: String) -> String? {
        switch fields[key] {
        case let text as String: text.isEmpty ? nil : text
        case let number as NSNumber where !Self.isBoolean(number): number.stringValue
        default: nil
        }
    }

    func bool(_ key: String) -> Bool {
        switch fields[key] {
        case let flag as Bool: flag
        case let text as String: ["true", "t", "1", "yes"].contains(text.lowercased())
        case let number as NSNumber: number.intValue != 0
        default: false
        }
    }

    /// A time: ISO 8601 / PostgreSQL text, or milliseconds since 1970 (Firebase).
    func date(_ key: String) -> Date? {
        switch fields[key] {
        case let text as String: ImportTimestamp.parse(text)
        case let number as NSNumber: Date(timeIntervalSince1970: number.doubleValue / 1000)
        default: nil
        }
    }

    /// A JSON object, given as one or as its text (CSV cells, Firebase's `customAttributes`).
    func object(_ key: String) -> [String: JSONValue]? {
        let value: Any? =
            if let text = fields[key] as? String {
                try? JSONSerialization.jsonObject(with: Data(text.utf8))
            } else {
                fields[key]
            }
        guard let value, case .object(let object) = Self.json(value) else { return nil }
        return object
    }

    func records(_ key: String) -> [ExportRecord] {
        (fields[key] as? [Any])?.compactMap { ($0 as? [String: Any]).map(ExportRecord.init) } ?? []
    }

    func record(_ key: String) -> ExportRecord? {
        (fields[key] as? [String: Any]).map(ExportRecord.init)
    }

    /// Whether `JSONSerialization` read `true` or `false` (an `NSNumber` of type `char`; on
    /// Linux `1 is Bool` holds too, so the cast cannot tell).
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A `JSONSerialization` value as ``JSONValue``.
    static func json(_ value: Any) -> JSONValue {
        switch value {
        case let text as String: return .string(text)
        case let number as NSNumber:
            if isBoolean(number) { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let array as [Any]: return .array(array.map(json))
        case let object as [String: Any]: return .object(object.mapValues(json))
        default: return .null
        }
    }
}
