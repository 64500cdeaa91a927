import Foundation

/// Base64url without padding (RFC 4648 section 5), as tokens and JWTs use it.
enum Base64URL {
    /// `bytes` as unpadded base64url.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` is the one unpadded base64url spelling of some bytes: only the alphabet,
    /// no padding, a length a real encoding has, and zero in the bits of the last character
    /// that carry no data (else several texts decode to the same bytes, RFC 4648 section 3.5).
    static func isCanonical(_ text: Substring) -> Bool {
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
    static func decodeCanonical(_ text: Substring) -> [UInt8]? {
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

    /// The bytes of unpadded (or padded-free) base64url text, or `nil` for anything else.
    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 < 0x80 }),
            text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
