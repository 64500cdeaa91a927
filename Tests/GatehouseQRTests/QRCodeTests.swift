import Foundation
import Testing

@testable import GatehouseQR

@Suite("QR Code encoder")
struct QRCodeTests {
    @Test func reedSolomonMatchesTheStandardsWorkedExample() {
        // Version 1-M, "HELLO WORLD" in alphanumeric mode: its 16 data codewords and the 10
        // error-correction codewords published for them.
        let data: [UInt8] = [
            0x20, 0x5B, 0x0B, 0x78, 0xD1, 0x72, 0xDC, 0x4D, 0x43, 0x40, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let ecc = ReedSolomon.remainder(of: data, generator: ReedSolomon.generator(degree: 10))
        #expect(ecc == [0xC4, 0x23, 0x27, 0x77, 0xEB, 0xD7, 0xE7, 0xE2, 0x5D, 0x17])
    }

    @Test func formatAndVersionBitsMatchTheStandardsTables() {
        let levelM = [
            "101010000010010", "101000100100101", "101111001111100", "101101101001011",
            "100010111111001", "100000011001110", "100111110010111", "100101010100000",
        ]
        for mask in 0..<8 {
            #expect(String(QRCode.formatBits(mask: mask), radix: 2).leftPadded(to: 15) == levelM[mask])
        }
        #expect(QRCode.versionBits(7) == 0x07C94)
        #expect(QRCode.versionBits(10) == 0x0A4D3)
    }

    @Test func picksTheSmallestVersionAndRefusesTooMuch() throws {
        #expect(try QRCode(text: "hello").version == 1)
        #expect(try QRCode(text: String(repeating: "a", count: 14)).version == 1)
        #expect(try QRCode(text: String(repeating: "a", count: 15)).version == 2)
        #expect(try QRCode(text: String(repeating: "a", count: 213)).version == 10)
        #expect(throws: QRCode.Failure.tooLong(bytes: 214, maximum: 213)) {
            try QRCode(text: String(repeating: "a", count: 214))
        }
    }

    @Test func finderPatternsSitInThreeCorners() throws {
        let code = try QRCode(text: "otpauth://totp/Gatehouse:ada@example.com?secret=JBSWY3DPEHPK3PXP")
        for (x, y) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(code[x, y] && code[x + 6, y + 6] && !code[x + 1, y + 1] && code[x + 3, y + 3])
        }
        #expect(code[8, code.size - 8], "the dark module")
    }

    @Test func theSVGAndTheTerminalTextDrawEveryModule() throws {
        let code = try QRCode(text: "hi")
        let svg = code.svg()
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("viewBox=\"0 0 29 29\""))
        let darkCount = (0..<code.size).flatMap { y in (0..<code.size).map { x in code[x, y] } }.filter { $0 }.count
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == darkCount)
        let lines = code.halfBlocks().split(separator: "\n")
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
