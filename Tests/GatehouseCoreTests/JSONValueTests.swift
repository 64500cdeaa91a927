import Foundation
import GatehouseCore
import Testing

/// Metadata decodes to the kind the JSON text has, whatever order the decoder tries kinds in:
/// text that reads like a flag or a number stays text, a flag never becomes a number, and an
/// empty array is not taken for an empty object.
@Suite("JSON values in metadata")
struct JSONValueTests {
    private func decoded(_ json: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    @Test func everyKindDecodesAsWritten() throws {
        #expect(try decoded("null") == .null)
        #expect(try decoded("true") == .bool(true))
        #expect(try decoded("false") == .bool(false))
        #expect(try decoded("0") == .number(0))
        #expect(try decoded("1") == .number(1))
        #expect(try decoded("-2.5e3") == .number(-2500))
        #expect(try decoded(#""true""#) == .string("true"))
        #expect(try decoded(#""1""#) == .string("1"))
        #expect(try decoded(#""""#) == .string(""))
        #expect(try decoded("[]") == .array([]))
        #expect(try decoded("{}") == .object([:]))
        #expect(
            try decoded(#"[1, "1", true, null, {}, []]"#)
                == .array([.number(1), .string("1"), .bool(true), .null, .object([:]), .array([])])
        )
    }

    @Test func nestedMetadataRoundTrips() throws {
        let json = #"{"provider":"email","providers":["email","apple"],"roles":{"admin":true,"level":3},"note":null}"#
        let value = try decoded(json)
        #expect(
            value
                == .object([
                    "provider": .string("email"),
                    "providers": .array([.string("email"), .string("apple")]),
                    "roles": .object(["admin": .bool(true), "level": .number(3)]),
                    "note": .null,
                ])
        )
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test func textThatIsNotJSONIsRefused() {
        #expect(throws: DecodingError.self) { try decoded("{\"a\": }") }
    }
}
