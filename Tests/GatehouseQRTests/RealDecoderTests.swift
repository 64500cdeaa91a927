import Foundation
import Testing

@testable import GatehouseQR

/// The SVG, rasterised, read back by a real decoder (zbar, through PyPI's pyzbar; `.ci/run`
/// installs both): what a phone camera would see.
@Suite(
    "QR codes decode with zbar",
    .enabled(if: ZBar.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs python3 with pyzbar")
)
struct RealDecoderTests {
    static let texts = [
        "hi",
        "otpauth://totp/Gatehouse:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Gatehouse",
        "otpauth://totp/auth.example.com:someone.with.a.long.address%2Btag@subdomain.example.org"
            + "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=auth.example.com&algorithm=SHA1&digits=6&period=30",
        "Grüße, 東京 ✓",
        String(repeating: "0123456789abcdef", count: 13) + "01234",  // 213 bytes: version 10
    ]

    @Test(arguments: texts)
    func decodesToTheSameText(_ text: String) throws {
        let code = try QRCode(text: text)
        #expect(try ZBar.decode(svg: code.svg()) == text)
    }

    @Test(arguments: 0..<8)
    func everyMaskDecodes(_ mask: Int) throws {
        let text = Self.texts[1]
        let code = try QRCode(bytes: Array(text.utf8), forcedMask: mask)
        #expect(code.mask == mask)
        #expect(try ZBar.decode(svg: code.svg()) == text)
    }

    @Test func everyVersionDecodes() throws {
        for version in QRVersion.all {
            let text = String(repeating: "v", count: version.byteCapacity)
            let code = try QRCode(text: text)
            #expect(code.version == version.number)
            #expect(try ZBar.decode(svg: code.svg()) == text, "version \(version.number)")
        }
    }
}

/// Runs zbar on an SVG made of unit squares: rasterised at 4 pixels a module.
enum ZBar {
    static let program = #"""
        import re, sys
        from pyzbar import pyzbar
        svg = sys.stdin.read()
        side = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))
        scale = 4
        width = side * scale
        pixels = bytearray([255]) * (width * width)
        for x, y in re.findall(r"M(\d+),(\d+)h1v1h-1z", svg):
            x, y = int(x), int(y)
            for dy in range(scale):
                row = (y * scale + dy) * width
                pixels[row + x * scale: row + x * scale + scale] = bytes(scale)
        results = pyzbar.decode((bytes(pixels), width, width), symbols=[pyzbar.ZBarSymbol.QRCODE])
        sys.stdout.buffer.write(results[0].data if results else b"<nothing decoded>")
        """#

    static var available: Bool {
        (try? run(["-c", "import pyzbar.pyzbar"], input: Data())) != nil
    }

    static func decode(svg: String) throws -> String {
        String(decoding: try run(["-c", program], input: Data(svg.utf8)), as: UTF8.self)
    }

    struct Failed: Error {
        var status: Int32
    }

    private static func run(_ arguments: [String], input: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus) }
        return output
    }
}
