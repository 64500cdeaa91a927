import GatehouseCore
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The strict CBOR decoder of WebAuthn: what it reads, and every kind of input it refuses.
@Suite("CBOR decoder")
struct CBORDecoderTests {
    let decoder = CBORDecoder()

    func decode(_ bytes: [UInt8]) -> Result<CBORValue, CBORError> {
        Result { () throws(CBORError) in try decoder.decode(bytes) }
    }

    @Test func readsTheWebAuthnSubset() throws {
        // {"fmt": "none", "attStmt": {}, "authData": h'0102'}
        let bytes: [UInt8] =
            [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [
                0xA0, 0x68,
            ]
            + Array("authData".utf8) + [0x42, 0x01, 0x02]
        let value = try decoder.decode(bytes)
        #expect(value[text: "fmt"] == .text("none"))
        #expect(value[text: "attStmt"] == .map([]))
        #expect(value[text: "authData"] == .bytes([1, 2]))
        #expect(try decoder.decode([0x20]) == .integer(-1))
        #expect(try decoder.decode([0x39, 0x01, 0x00]) == .integer(-257))
        #expect(try decoder.decode([0x18, 0x18]) == .integer(24))
        #expect(try decoder.decode([0x1B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .integer(.max))
        #expect(try decoder.decode([0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .integer(.min))
        #expect(try decoder.decode([0x82, 0xF5, 0xF6]) == .array([.bool(true), .null]))
    }

    @Test func reportsHowMuchAPrefixTook() throws {
        let (value, length) = try decoder.decodePrefix([0xA1, 0x01, 0x02, 0xFF, 0xFF])
        #expect(value == .map([(key: .integer(1), value: .integer(2))]))
        #expect(length == 3)
    }

    @Test(
        arguments: [
            ([0xA1, 0x01, 0x02, 0x00], CBORError.trailingBytes),
            ([], .truncated),
            ([0x42, 0x01], .truncated),
            ([0x19, 0x01], .truncated),
            ([0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated),
            ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated),
            ([0xBB, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], .truncated),
            ([0x83, 0x01, 0x02], .truncated),
            ([0x5F, 0x41, 0x00, 0xFF], .indefiniteLength),
            ([0x9F, 0xFF], .indefiniteLength),
            ([0xBF, 0xFF], .indefiniteLength),
            ([0x7F, 0xFF], .indefiniteLength),
            ([0xFF], .unsupportedType),
            ([0x1C], .reservedAdditionalInformation),
            ([0x18, 0x05], .nonMinimalEncoding),
            ([0x19, 0x00, 0xFF], .nonMinimalEncoding),
            ([0x1A, 0x00, 0x00, 0xFF, 0xFF], .nonMinimalEncoding),
            ([0x1B, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF], .nonMinimalEncoding),
            ([0x58, 0x01, 0x00], .nonMinimalEncoding),
            ([0x1B, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], .integerOutOfRange),
            ([0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .integerOutOfRange),
            ([0xC0, 0x60], .unsupportedType),
            ([0xF9, 0x3C, 0x00], .unsupportedType),
            ([0xFB, 0x3F, 0xF0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], .unsupportedType),
            ([0xF7], .unsupportedType),
            ([0xF0], .unsupportedType),
            ([0x62, 0xC3, 0x28], .invalidUTF8),
            ([0xA1, 0x80, 0x00], .invalidMapKey),
            ([0xA1, 0x40, 0x00], .invalidMapKey),
            ([0xA2, 0x01, 0x00, 0x01, 0x00], .duplicateMapKey),
            ([0xA2, 0x61, 0x61, 0x00, 0x61, 0x61, 0x01], .duplicateMapKey),
        ] as [([UInt8], CBORError)]
    )
    func refuses(_ bytes: [UInt8], _ expected: CBORError) {
        #expect(decode(bytes) == .failure(expected))
    }

    @Test func limitsDepthItemsAndSize() {
        #expect(decode([UInt8](repeating: 0x81, count: 9) + [0x00]) == .failure(.tooDeep))
        #expect(decode([UInt8](repeating: 0x81, count: 8) + [0x00]) != .failure(.tooDeep))
        #expect(decode([UInt8](repeating: 0x81, count: 100_000)) == .failure(.tooLarge))
        #expect(decode([0x99, 0x04, 0x00] + [UInt8](repeating: 0x00, count: 1_024)) == .failure(.tooManyItems))
        #expect(decode([0x99, 0x03, 0xFF] + [UInt8](repeating: 0x00, count: 1_023)) != .failure(.tooManyItems))
    }

    /// Random bytes and random truncations of a real attestation object never trap.
    @Test func neverTrapsOnRandomInput() {
        var generator = SplitMix(seed: 17)
        var decoded = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 64)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if case .success = decode(bytes) { decoded += 1 }
        }
        // Some random inputs are valid CBOR (single small integers, for one): the decoder is not refusing everything.
        #expect(decoded > 0)
    }
}

/// A small deterministic generator for the random-input test.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
