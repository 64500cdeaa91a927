package import Foundation
import GatehouseCore

extension UUID {
    /// The lowercase text form used as a key (`8-4-4-4-12` hex digits), written directly:
    /// `uuidString.lowercased()` formats through `sprintf` and copies the text twice, on every
    /// bound id and every user written as JSON.
    package var key: String {
        let digits = Hex.digits
        var text: [UInt8] = []
        text.reserveCapacity(36)
        withUnsafeBytes(of: uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The UUID spelled `text` in the `8-4-4-4-12` form, hex digits of either case, as
    /// `UUID(uuidString:)` reads it (which goes through glibc's `sscanf` on Linux); `nil` for
    /// anything else.
    package init?(text: String) {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { buffer -> Bool in
            var utf8 = text.utf8.makeIterator()
            var count = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8.next() == UInt8(ascii: "-") else { return false }
                    count += 1
                }
                guard let high = utf8.next().flatMap(Self.hexValue), let low = utf8.next().flatMap(Self.hexValue)
                else { return false }
                buffer[index] = high << 4 | low
                count += 2
            }
            return count == 36 && utf8.next() == nil
        }
        guard parsed else { return nil }
        self.init(uuid: value)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
