import Foundation

/// The few CBOR items (RFC 8949) a passkey authenticator writes: unsigned and negative
/// integers, byte and text strings, maps; shortest forms, as CTAP2's canonical encoding asks.
enum CBORWriter {
    /// One item to encode.
    indirect enum Item {
        case integer(Int64)
        case bytes(Data)
        case text(String)
        case map([(Item, Item)])
    }

    static func encode(_ item: Item) -> Data {
        var out = Data()
        write(item, to: &out)
        return out
    }

    private static func write(_ item: Item, to out: inout Data) {
        switch item {
        case .integer(let value) where value >= 0:
            head(0, UInt64(value), to: &out)
        case .integer(let value):
            head(1, UInt64(-1 - value), to: &out)
        case .bytes(let data):
            head(2, UInt64(data.count), to: &out)
            out.append(data)
        case .text(let text):
            head(3, UInt64(text.utf8.count), to: &out)
            out.append(contentsOf: Array(text.utf8))
        case .map(let entries):
            head(5, UInt64(entries.count), to: &out)
            for (key, value) in entries {
                write(key, to: &out)
                write(value, to: &out)
            }
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, to out: inout Data) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xFF: out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF: out.append(contentsOf: [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)])
        case 0x10000...0xFFFF_FFFF:
            out.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((argument >> UInt64(shift)) & 0xFF)) }
        default:
            out.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((argument >> UInt64(shift)) & 0xFF)) }
        }
    }
}
