import Crypto
import Foundation

/// Lowercase hexadecimal text of bytes.
enum Hex {
    /// The lowercase hex digits, by value (also spelled by ``Foundation/UUID/key``).
    static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex, two digits per byte.
    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of `text`'s UTF-8, as lowercase hex.
    static func sha256(_ text: String) -> String {
        encode(Array(SHA256.hash(data: Data(text.utf8))))
    }
}
