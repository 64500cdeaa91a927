import Foundation
import GatehouseCore
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The small helpers that tokens and codes are built from (base64url, base32 and hex are
/// tested with GatehouseCore, their home).
@Suite("SHA-256 hex, random bytes, UUID text, constant-time comparison")
struct EncodingHelperTests {
    @Test func hexSHA256IsLowercaseAndRandomBytesHaveTheirCount() {
        #expect(Hex.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SecureRandom.bytes(32).count == 32)
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
