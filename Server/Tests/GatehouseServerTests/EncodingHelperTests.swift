import Foundation
import Testing

@testable import GatehouseServer

/// The small helpers that tokens and codes are built from.
@Suite("Hex, base64url, constant-time comparison")
struct EncodingHelperTests {
    @Test func hexIsLowercaseTwoDigitsPerByte() {
        #expect(Hex.encode([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
        #expect(Hex.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SecureRandom.bytes(32).count == 32)
    }

    @Test func base64URLRoundTripsWithoutPaddingAndRefusesOtherAlphabets() {
        for count in 0..<40 {
            let bytes = SecureRandom.bytes(count)
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
            // The same text Foundation's base64 gives, in the URL alphabet without padding.
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == foundation)
        }
        // One spelling only: stray bits in the last character, or a length no encoding has.
        #expect(Base64URL.decode("AA") == [0] && Base64URL.decode("AB") == nil && Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("abc=") == nil)
        #expect(Base64URL.decode("äbc") == nil)
    }

    @Test func uuidTextIsFoundationsSpellingAndReadsOnlyIt() {
        for _ in 0..<500 {
            let id = UUID()
            #expect(id.key == id.uuidString.lowercased())
            #expect(UUID(text: id.key) == id)
            #expect(UUID(text: id.uuidString) == id)
        }
        let good = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
        #expect(UUID(text: good)?.key == good)
        for bad in [
            "", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f",
            "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f00",
            "0f1e2d3c-4b5a-6978-8796_a5b4c3d2e1f0", "0f1e2d3-c4b5a-6978-8796-a5b4c3d2e1f0",
            "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fg",
            "{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}", " 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
            "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fé",
        ] {
            #expect(UUID(text: bad) == nil, "\(bad)")
            #expect(UUID(uuidString: bad) == nil, "Foundation agrees: \(bad)")
        }
    }

    @Test func constantTimeEqualityComparesWholeValues() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([1, 2], [1, 2, 3]))
        #expect(ConstantTime.equal("code", "code") && !ConstantTime.equal("code", "cod"))
        let id = UUID()
        #expect(UUID(bytes: id.bytes) == id)
    }
}
