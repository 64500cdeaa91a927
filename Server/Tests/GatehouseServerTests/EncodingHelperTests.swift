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

    /// Every length comes out whole (across the 256-byte steps of `getentropy` too), and no
    /// byte of a draw is fixed or copied from another: over 64 draws of 37 bytes, each position
    /// takes many values, and the eight-byte words of a draw differ.
    @Test func randomBytesHaveEveryLengthAndNoFixedPosition() {
        for count in Array(0..<40) + [255, 256, 257, 600] { #expect(SecureRandom.bytes(count).count == count) }
        let long = SecureRandom.bytes(600)
        #expect(Set(long[0..<256]).count > 64 && Set(long[256..<512]).count > 64 && Set(long[512...]).count > 32)
        let draws = (0..<64).map { _ in SecureRandom.bytes(37) }
        for position in 0..<37 {
            #expect(Set(draws.map { $0[position] }).count > 16, "position \(position) barely changes")
        }
        for draw in draws {
            let words: [[UInt8]] = [
                Array(draw[0..<8]), Array(draw[8..<16]), Array(draw[16..<24]), Array(draw[24..<32]),
            ]
            #expect(Set(words).count == 4)
        }
        #expect(Set(draws).count == draws.count)
    }

    /// `UUID.random()` makes version-4 ids (RFC 9562: version nibble 4, variant bits 10) whose
    /// other 122 bits vary.
    @Test func randomUUIDsAreVersionFourAndDiffer() {
        let ids = (0..<500).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.uuidString
            #expect(Array(text)[14] == "4" && "89AB".contains(Array(text)[19]), "\(text)")
        }
        for position in [0, 5, 7, 9, 15] {
            #expect(Set(ids.map { $0.bytes[position] }).count > 64, "byte \(position) barely changes")
        }
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
