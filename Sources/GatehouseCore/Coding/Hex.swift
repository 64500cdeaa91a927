/// Lowercase hexadecimal text of bytes: code hashes, nonces and ids. The one hex codec of
/// Gatehouse, shared by the server and the SDK.
public enum Hex {
    /// The lowercase hex digits, by value.
    public static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex, two digits per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
