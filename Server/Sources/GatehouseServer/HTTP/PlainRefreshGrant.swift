import Foundation
import GatehouseServerSupport

/// The refresh grant's body in the shape every client sends, `{"refresh_token":"…"}` (with or
/// without white space between its parts), read without the JSON decoder: the refresh is the
/// request a signed-in app makes most after `GET /user`, and the decoder's setup, boxing and
/// key matching cost about 9 µs of it (issue 35).
///
/// Only that one member, and a token of printable ASCII with no quote or backslash, is read
/// here; anything else (escapes, other members, repeated keys, other characters) returns `nil`
/// and goes to the decoder, so what this accepts is always what the decoder would read (tested
/// against it).
enum PlainRefreshGrant {
    /// The token of `body`, or `nil` when it is not that plain shape.
    static func token(in body: Data) -> String? {
        body.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            reader.skipSpace()
            guard reader.take(UInt8(ascii: "{")) else { return nil }
            reader.skipSpace()
            guard reader.take(literal: #""refresh_token""#) else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: "\"")) else { return nil }
            let start = reader.offset
            while reader.peek()?.isPlainJSONStringByte == true { reader.offset += 1 }
            let end = reader.offset
            guard reader.take(UInt8(ascii: "\"")) else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: "}")) else { return nil }
            reader.skipSpace()
            guard reader.isAtEnd else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: reader.bytes[start..<end]), as: UTF8.self)
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        func peek() -> UInt8? {
            offset < bytes.count ? bytes[offset] : nil
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            offset += 1
            return true
        }

        mutating func take(literal: StaticString) -> Bool {
            literal.withUTF8Buffer { expected in
                guard bytes.count - offset >= expected.count,
                    UnsafeBufferPointer(rebasing: bytes[offset..<offset + expected.count]).elementsEqual(expected)
                else { return false }
                offset += expected.count
                return true
            }
        }

        /// JSON's white space: space, tab, line feed, carriage return.
        mutating func skipSpace() {
            while let byte = peek(),
                byte == UInt8(ascii: " ") || byte == 0x09 || byte == 0x0A || byte == 0x0D
            {
                offset += 1
            }
        }
    }
}
