extension QRCode {
    mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// Timing patterns, finders with their separators, alignment patterns, and the format and
    /// version areas.
    mutating func drawFunctionPatterns(_ version: QRVersion) {
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        drawFinder(x: 3, y: 3)
        drawFinder(x: size - 4, y: 3)
        drawFinder(x: 3, y: size - 4)
        let centres = version.alignmentCentres
        for (i, x) in centres.enumerated() {
            for (j, y) in centres.enumerated() {
                let overlapsFinder =
                    (i == 0 && j == 0) || (i == 0 && j == centres.count - 1) || (i == centres.count - 1 && j == 0)
                if !overlapsFinder { drawAlignment(x: x, y: y) }
            }
        }
        drawFormatBits(mask: 0)
        drawVersionBits(version.number)
    }

    private mutating func drawFinder(x: Int, y: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let distance = max(abs(dx), abs(dy))
                let (column, row) = (x + dx, y + dy)
                if (0..<size).contains(column), (0..<size).contains(row) {
                    setFunction(column, row, distance != 2 && distance != 4)
                }
            }
        }
    }

    private mutating func drawAlignment(x: Int, y: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// The 15 format bits (level M, `mask`), in both copies, and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let bits = Self.formatBits(mask: mask)
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    /// The 18 version bits (versions 7 and up), in both copies.
    private mutating func drawVersionBits(_ number: Int) {
        guard number >= 7 else { return }
        let bits = Self.versionBits(number)
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let (a, b) = (size - 11 + index % 3, index / 3)
            setFunction(a, b, dark)
            setFunction(b, a, dark)
        }
    }

    /// The 15-bit format information for level M and `mask`: BCH(15,5), XORed with 0x5412.
    static func formatBits(mask: Int) -> Int {
        let data = (0b00 << 3) | mask  // level M is 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return ((data << 10) | remainder) ^ 0x5412
    }

    /// The 18-bit version information: BCH(18,6).
    static func versionBits(_ number: Int) -> Int {
        var remainder = number
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return (number << 12) | remainder
    }

    /// Places the codewords in the zigzag order, two columns at a time from the bottom right.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y * size + x], index < codewords.count * 8 {
                        modules[y * size + x] = (codewords[index >> 3] >> (7 - index & 7)) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }
}
