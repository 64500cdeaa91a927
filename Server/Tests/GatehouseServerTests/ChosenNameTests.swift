import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Names a person chooses (a factor's or a passkey's friendly name, a factor's issuer) refuse
/// characters that hide in text, so that a name cannot pass for another.
@Suite("Chosen names")
struct ChosenNameTests {
    /// Characters that render as nothing, or reorder what follows, in a name that looks harmless.
    static let hidden = [
        "\u{202E}", "\u{2066}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{00AD}", "\u{2028}", "\u{0007}", "\u{E000}",
    ]

    @Test func invisibleCharactersAreRefusedAndSurroundingSpaceTrimmed() throws {
        for character in Self.hidden {
            #expect(throws: APIError.self, "U+\(String(character.unicodeScalars.first!.value, radix: 16))") {
                try ChosenName.validated("phone\(character)1", field: "friendly_name", maximumCharacters: 100)
            }
        }
        #expect(
            try ChosenName.validated("  Ada's phone ", field: "friendly_name", maximumCharacters: 100) == "Ada's phone"
        )
        #expect(try ChosenName.validated("Téléphone d'Ada 📱", field: "friendly_name", maximumCharacters: 100) != "")
        #expect(
            try ChosenName.validated(String(repeating: "é", count: 100), field: "f", maximumCharacters: 100).count
                == 100
        )
        #expect(throws: APIError.self) {
            try ChosenName.validated(String(repeating: "é", count: 101), field: "f", maximumCharacters: 100)
        }
    }

    @Test func aFactorsNameAndIssuerRefuseInvisibleCharacters() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            for character in Self.hidden {
                let escaped = Self.jsonEscaped(character)
                for field in ["friendly_name", "issuer"] {
                    let reply = try await client.post(
                        "/factors",
                        #"{"factor_type":"totp","\#(field)":"Acme\#(escaped)Corp"}"#,
                        bearer: token
                    )
                    #expect(
                        reply.status == .badRequest && reply.errorCode == "validation_failed",
                        "\(field) \(escaped)"
                    )
                }
            }
            #expect(try await client.get("/user", bearer: token)["factors"] == nil, "nothing was enrolled")
            let spaced = try await client.enroll(token, name: "  phone  ")
            #expect(spaced.reply.status == .ok)
            #expect(spaced.reply.string("friendly_name") == "phone")
            #expect(try await client.enroll(token, name: "phone").reply.errorCode == "mfa_factor_name_conflict")
        }
    }

    @Test func aPasskeysNameRefusesInvisibleCharacters() async throws {
        let harness = try await Harness.make(PasskeyTests.enabled)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            let path = "/passkeys/\(UUID().uuidString)"
            for character in Self.hidden {
                let escaped = Self.jsonEscaped(character)
                let rename = try await client.send(
                    .patch,
                    path,
                    json: #"{"friendly_name":"My\#(escaped)Mac"}"#,
                    bearer: token
                )
                #expect(rename.status == .badRequest && rename.errorCode == "validation_failed", "\(escaped)")
            }
            for blank in ["", "   "] {
                let rename = try await client.send(.patch, path, json: #"{"friendly_name":"\#(blank)"}"#, bearer: token)
                #expect(rename.errorCode == "validation_failed")
            }
            // A clean name passes the check and reaches the lookup.
            let clean = try await client.send(.patch, path, json: #"{"friendly_name":" My Mac "}"#, bearer: token)
            #expect(clean.errorCode == "webauthn_credential_not_found")
        }
    }

    static func jsonEscaped(_ character: String) -> String {
        character.unicodeScalars.map { String(format: "\\u%04X", $0.value) }.joined()
    }
}
