/// A QR Code (ISO/IEC 18004, model 2) holding bytes in byte mode at error-correction level M:
/// what an authenticator app scans from an `otpauth://` URI.
///
/// ```swift
/// let code = try QRCode(text: "otpauth://totp/Gatehouse:ada@example.com?secret=JBSWY3DPEHPK3PXP")
/// let svg = code.svg()                 // for a web page or an API reply
/// print(code.halfBlocks())             // for a terminal
/// ```
public struct QRCode: Sendable, Equatable {
    /// Why a text cannot be encoded.
    public enum Failure: Error, Sendable, Equatable {
        /// More bytes than the largest supported version (10-M: 213 bytes) holds.
        case tooLong(bytes: Int, maximum: Int)
    }

    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    /// The version, 1 to 10.
    public let version: Int
    /// The mask pattern chosen, 0 to 7.
    public let mask: Int
    var modules: [Bool]
    var isFunction: [Bool]

    /// Encodes `text` as UTF-8 in the smallest version that holds it.
    ///
    /// - Throws: ``Failure/tooLong(bytes:maximum:)`` beyond 213 bytes.
    public init(text: String) throws(Failure) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Encodes `bytes` in the smallest version that holds them, with the mask of lowest penalty
    /// (or `forcedMask`, for tests).
    public init(bytes: [UInt8], forcedMask: Int? = nil) throws(Failure) {
        guard let version = QRVersion.fitting(byteCount: bytes.count) else {
            throw .tooLong(bytes: bytes.count, maximum: QRVersion.all.last!.byteCapacity)
        }
        var draft = QRCode(blank: version)
        draft.drawFunctionPatterns(version)
        draft.drawCodewords(Self.codewords(for: bytes, in: version))
        self = draft.withBestMask(forcedMask)
    }

    private init(blank version: QRVersion) {
        self.version = version.number
        self.size = version.size
        self.mask = 0
        self.modules = Array(repeating: false, count: version.size * version.size)
        self.isFunction = modules
    }

    /// Whether the module at column `x`, row `y` is dark.
    public subscript(x: Int, y: Int) -> Bool {
        modules[y * size + x]
    }

    /// The data and error-correction codewords in the order they are placed.
    static func codewords(for bytes: [UInt8], in version: QRVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version.countBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < version.dataCodewords {
            data.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return interleaved(data, in: version)
    }

    /// Splits `data` into blocks, adds each block's error correction, and interleaves them.
    static func interleaved(_ data: [UInt8], in version: QRVersion) -> [UInt8] {
        let generator = ReedSolomon.generator(degree: version.eccPerBlock)
        var blocks: [[UInt8]] = []
        var offset = 0
        for index in 0..<(version.shortBlocks + version.longBlocks) {
            let length = version.shortBlockData + (index < version.shortBlocks ? 0 : 1)
            blocks.append(Array(data[offset..<offset + length]))
            offset += length
        }
        let corrections = blocks.map { ReedSolomon.remainder(of: $0, generator: generator) }
        var result: [UInt8] = []
        for column in 0...version.shortBlockData {
            for block in blocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<version.eccPerBlock {
            for correction in corrections { result.append(correction[column]) }
        }
        return result
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            bits.append((value >> shift) & 1 == 1)
        }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }
}
