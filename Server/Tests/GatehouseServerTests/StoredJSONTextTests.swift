import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import Testing

/// The JSON text columns written without `JSONEncoder` (metadata, a session's `amr`) hold what
/// the encoder wrote for them, keys sorted, and read back to the same values.
@Suite("JSON text columns written directly")
struct StoredJSONTextTests {
    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try Self.encoder.encode(value), as: UTF8.self)
    }

    @Test func metadataIsTheEncodersTextWithKeysSorted() throws {
        let samples: [[String: JSONValue]] = [
            [:],
            ["provider": .string("email"), "providers": .array([.string("email"), .string("apple")])],
            [
                "zeta": .number(1), "alpha": .bool(false), "middle": .null, "list": .array([]),
                "nested": .object(["b": .string("x/y \"quoted\" \\ \n tab\t é ✓"), "a": .number(-2.5)]),
            ],
        ]
        for metadata in samples {
            let text = JSONText.encode(metadata)
            #expect(text == (try encoded(metadata)))
            #expect(try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8)) == metadata)
        }
        #expect(JSONText.encode(["bad": .number(.nan)]) == "{}")
    }

    @Test func amrIsTheEncodersTextAndReadsBack() throws {
        let samples: [[AMREntry]] = [
            [],
            [AMREntry(method: .password, timestamp: 1_732_000_000)],
            [
                AMREntry(method: .oauth, timestamp: 1_732_000_001, provider: .apple),
                AMREntry(method: .totp, timestamp: 1_732_000_002),
                AMREntry(method: .emailSignup, timestamp: 1_732_000_003),
            ],
        ]
        for entries in samples {
            let text = AMRText.text(entries)
            #expect(text == (try encoded(entries)))
            #expect(try AMRText.entries(text) == entries)
        }
    }
}
