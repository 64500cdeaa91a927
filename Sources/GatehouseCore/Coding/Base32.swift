/// RFC 4648 base32 (the alphabet authenticator apps read), written without padding: the TOTP
/// secrets the server enrols and authenticator apps (and `GatehouseTesting`) read.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The base32 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: output, as: UTF8.self)
    }
}

extension Base32 {
    /// The bytes of a base32 text: letters of either case, trailing `=` padding allowed; `nil`
    /// for any other character, or for leftover bits that are not zero (a text no encoder writes).
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        var padded = false
        for character in text.utf8 {
            if character == UInt8(ascii: "=") {
                padded = true
                continue
            }
            let value: Int
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = Int(character - UInt8(ascii: "a"))
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = Int(character - UInt8(ascii: "2")) + 26
            default: return nil
            }
            guard !padded else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
            buffer &= (1 << bits) - 1
        }
        guard buffer == 0 else { return nil }
        return output
    }
}
