public import Foundation

/// Base64url without padding (RFC 4648 section 5), as tokens, JWTs, PKCE and WebAuthn use it.
/// The one base64url codec of Gatehouse: the server, the SDK, its test backend and the CLI all
/// encode and decode with it.
///
/// Decoding is strict: only the one canonical spelling of some bytes is accepted (no padding, no
/// other alphabet, no stray bits), so one value has one text.
public enum Base64URL {
    /// The 64 characters of base64url, by value.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as unpadded base64url, written directly (no Foundation string replacing, which
    /// went through `NSString` and showed in a profile of the refresh grant).
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        append(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `bytes` as unpadded base64url to `output`.
    public static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        let alphabet = Self.alphabet
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] as [UInt32] { output.append(alphabet[Int(chunk >> shift & 0x3F)]) }
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let chunk = UInt32(bytes[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
        case 2:
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
        default:
            break
        }
    }

    /// Whether `text` is the one unpadded base64url spelling of some bytes: only the alphabet,
    /// no padding, a length a real encoding has, and zero in the bits of the last character
    /// that carry no data (else several texts decode to the same bytes, RFC 4648 section 3.5).
    public static func isCanonical(_ text: Substring) -> Bool {
        var last: UInt8 = 0
        for byte in text.utf8 {
            guard let value = sextet(byte) else { return false }
            last = value
        }
        switch text.utf8.count % 4 {
        case 0: return true
        case 2: return last & 0x0F == 0
        case 3: return last & 0x03 == 0
        default: return false
        }
    }

    /// The 6-bit value of a base64url character.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The bytes of text that ``isCanonical(_:)`` accepted (4 characters to 3 bytes, no
    /// padding), or `nil` when it is not base64url after all.
    public static func decodeCanonical(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            guard let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bytes
    }

    /// The bytes of unpadded base64url text in its one canonical spelling
    /// (``isCanonical(_:)``), or `nil` for anything else (padding, other characters, a length
    /// no encoding has, stray bits in the last character).
    public static func decode(_ text: String) -> [UInt8]? {
        let text = Substring(text)
        guard isCanonical(text) else { return nil }
        return decodeCanonical(text)
    }

    /// `data` as unpadded base64url: WebAuthn's and PKCE's spelling of bytes in JSON.
    public static func string(_ data: Data) -> String {
        encode(Array(data))
    }

    /// The bytes of base64url `text`, written with or without its `=` padding; `nil` for
    /// `nil`, other characters, or a text no encoder writes.
    public static func data(_ text: String?) -> Data? {
        guard var text else { return nil }
        if text.utf8.count % 4 == 0 {
            var padding = 0
            while padding < 2, text.hasSuffix("=") {
                text.removeLast()
                padding += 1
            }
        }
        return decode(text).map { Data($0) }
    }
}
