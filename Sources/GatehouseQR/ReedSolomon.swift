/// Reed-Solomon error correction over GF(2⁸) with the QR polynomial x⁸+x⁴+x³+x²+1.
enum ReedSolomon {
    /// `a · b` in GF(2⁸).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product: Int = 0
        for bit in (0..<8).reversed() {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            if (b >> bit) & 1 == 1 { product ^= Int(a) }
        }
        return UInt8(product & 0xFF)
    }

    /// The generator polynomial of `degree` (coefficients from the highest power, leading 1 dropped).
    static func generator(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The error-correction codewords for `data` with a generator from ``generator(degree:)``.
    static func remainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices {
                result[index] ^= multiply(generator[index], factor)
            }
        }
        return result
    }
}
