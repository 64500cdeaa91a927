import Foundation
package import GatehouseCore

/// JSON written straight into bytes, as Foundation's `JSONEncoder` writes it with its default
/// options: members in the order they are written, `/` escaped as `\/` (unless told otherwise,
/// as the encoder's `.withoutEscapingSlashes`), other non-ASCII text as
/// UTF-8, control characters as `\b \t \n \f \r` or `\u00XX`. For the payloads written on every
/// request (an access token's claims), without the encoder's per-call setup and boxing of every
/// value. Numbers other than integers go through the encoder itself, so they are never spelled
/// differently.
///
/// Commas are placed by the writer: every value (or key) after the first in its container is
/// preceded by one.
package struct JSONBytes {
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows another one in its container.
    private var follows = false
    /// Whether ``object(_:)`` writes members in the order of their keys (as the encoder's
    /// `.sortedKeys`), rather than the dictionary's.
    private let sortsKeys: Bool
    /// Whether `/` is written as `\/` (the encoder's default) rather than as itself (its
    /// `.withoutEscapingSlashes`).
    private let escapesSlashes: Bool

    package init(capacity: Int = 0, sortsKeys: Bool = false, escapesSlashes: Bool = true) {
        bytes.reserveCapacity(capacity)
        self.sortsKeys = sortsKeys
        self.escapesSlashes = escapesSlashes
    }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }

    package mutating func endObject() { close(UInt8(ascii: "}")) }

    package mutating func beginArray() { open(UInt8(ascii: "[")) }

    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        follows = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        follows = true
    }

    /// A member's key; its value comes next.
    package mutating func key(_ name: String) {
        separate()
        quoted(name)
        bytes.append(UInt8(ascii: ":"))
        follows = false
    }

    package mutating func string(_ text: String) {
        separate()
        quoted(text)
        follows = true
    }

    package mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        follows = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueText : Self.falseText)
        follows = true
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: Self.nullText)
        follows = true
    }

    /// A number as the encoder spells it.
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold (infinite or NaN), as the encoder does.
    package mutating func number(_ value: Double) throws {
        separate()
        bytes.append(contentsOf: try Self.encoder.encode(value))
        follows = true
    }

    /// A metadata value, objects' members in the dictionary's order (as the encoder takes them)
    /// or, when the writer sorts keys, in the order of their keys.
    package mutating func value(_ value: JSONValue) throws {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): try self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { try self.value(element) }
            endArray()
        case .object(let members): try object(members)
        }
    }

    package mutating func object(_ members: [String: JSONValue]) throws {
        beginObject()
        if sortsKeys {
            for name in members.keys.sorted() {
                key(name)
                try value(members[name] ?? .null)
            }
        } else {
            for (name, member) in members {
                key(name)
                try value(member)
            }
        }
        endObject()
    }

    private mutating func separate() {
        if follows { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func quoted(_ text: String) {
        var text = text
        text.withUTF8 { quoted(utf8: $0) }
    }

    /// ``quoted(_:)`` on the text's bytes in memory: text with nothing to escape (a token, a
    /// name, an address) is copied whole.
    private mutating func quoted(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        let escapesSlashes = escapesSlashes
        let plain = utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && !(escapesSlashes && byte == UInt8(ascii: "/"))
        }
        if plain {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "/") where escapesSlashes:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                bytes.append(contentsOf: Array(#"\u00"#.utf8))
                bytes.append(Hex.digits[Int(byte >> 4)])
                bytes.append(Hex.digits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
    private static let nullText = Array("null".utf8)
    /// For numbers only; `JSONEncoder` is safe to share between threads.
    private static let encoder = JSONEncoder()
}
