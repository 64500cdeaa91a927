/// One QR Code version at error-correction level M: its size and how its codewords split into
/// Reed-Solomon blocks (ISO/IEC 18004, table 9). Versions 1 to 10 hold up to 213 bytes, enough
/// for an `otpauth://` URI.
struct QRVersion: Sendable, Equatable {
    /// The version number, 1 to 10.
    let number: Int
    /// Error-correction codewords per block.
    let eccPerBlock: Int
    /// Blocks of the first group and their data codewords; the second group has one more each.
    let shortBlocks: Int
    let shortBlockData: Int
    let longBlocks: Int

    static let all: [QRVersion] = [
        QRVersion(number: 1, eccPerBlock: 10, shortBlocks: 1, shortBlockData: 16, longBlocks: 0),
        QRVersion(number: 2, eccPerBlock: 16, shortBlocks: 1, shortBlockData: 28, longBlocks: 0),
        QRVersion(number: 3, eccPerBlock: 26, shortBlocks: 1, shortBlockData: 44, longBlocks: 0),
        QRVersion(number: 4, eccPerBlock: 18, shortBlocks: 2, shortBlockData: 32, longBlocks: 0),
        QRVersion(number: 5, eccPerBlock: 24, shortBlocks: 2, shortBlockData: 43, longBlocks: 0),
        QRVersion(number: 6, eccPerBlock: 16, shortBlocks: 4, shortBlockData: 27, longBlocks: 0),
        QRVersion(number: 7, eccPerBlock: 18, shortBlocks: 4, shortBlockData: 31, longBlocks: 0),
        QRVersion(number: 8, eccPerBlock: 22, shortBlocks: 2, shortBlockData: 38, longBlocks: 2),
        QRVersion(number: 9, eccPerBlock: 22, shortBlocks: 3, shortBlockData: 36, longBlocks: 2),
        QRVersion(number: 10, eccPerBlock: 26, shortBlocks: 4, shortBlockData: 43, longBlocks: 1),
    ]

    /// Modules per side.
    var size: Int { number * 4 + 17 }

    /// Data codewords in all blocks.
    var dataCodewords: Int { shortBlocks * shortBlockData + longBlocks * (shortBlockData + 1) }

    /// All codewords, data and error correction.
    var totalCodewords: Int { dataCodewords + (shortBlocks + longBlocks) * eccPerBlock }

    /// Bits of the byte-mode character count.
    var countBits: Int { number < 10 ? 8 : 16 }

    /// The most bytes byte mode can hold.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - countBits) / 8 }

    /// Centre coordinates of the alignment patterns along each axis.
    var alignmentCentres: [Int] {
        switch number {
        case 1: return []
        case 2...6: return [6, size - 7]
        case 7: return [6, 22, 38]
        case 8: return [6, 24, 42]
        case 9: return [6, 26, 46]
        default: return [6, 28, 50]
        }
    }

    /// The smallest version that holds `count` bytes.
    static func fitting(byteCount count: Int) -> QRVersion? {
        all.first { $0.byteCapacity >= count }
    }
}
