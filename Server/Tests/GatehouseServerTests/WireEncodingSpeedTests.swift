import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The hand-written paths of a bearer request and a grant (``UserJSON``, ``AMRText``,
/// ``Base64URL/decodeCanonical(_:)``) give exactly what the general ones give.
@Suite("Per-request encoding shortcuts")
struct WireEncodingSpeedTests {
    static let strings = [
        "ada@example.com", "a/b@example.com", "quote\"@example.com", "back\\slash", "tab\there", "line\nbreak",
        "\u{1}\u{1f}", "\u{7f}", "é@exämple.com", "😀", "\u{2028}", "", " ", "authenticated", "service_role",
    ]

    static func dates(_ random: inout some RandomNumberGenerator) -> [Date?] {
        [
            nil, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1.9996), Date(timeIntervalSince1970: -0.5),
            Date(timeIntervalSince1970: -86_400 * 400), Date(timeIntervalSince1970: 253_402_300_800.5),
            Date(timeIntervalSince1970: 1e15), Date.distantPast, Date.distantFuture,
            Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &random)),
            Date(
                timeIntervalSince1970: Double(Int.random(in: 1_600_000_000_000..<1_900_000_000_000, using: &random))
                    / 1000
            ),
        ]
    }

    @Test func userAndSessionJSONAreTheEncodersBytes() throws {
        let encoder = WireCoding.makeEncoder()
        var random = SystemRandomNumberGenerator()
        let identity = WireIdentity(
            identityID: UUID(),
            id: "sub-1",
            userID: UUID(),
            identityData: ["email": .string("a/\"b\"@example.com"), "n": .number(1.5)],
            provider: "email",
            email: "a@example.com",
            lastSignInAt: nil,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.25),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_001)
        )
        let otherIdentity = WireIdentity(
            identityID: UUID(),
            id: "0012.apple\\sub/é",
            userID: UUID(),
            identityData: [:],
            provider: "apple",
            email: nil,
            lastSignInAt: Date(timeIntervalSince1970: -5),
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.9999),
            updatedAt: Date.distantFuture
        )
        let factor = WireFactor(
            id: UUID(),
            status: "verified",
            friendlyName: "phone \"2\"",
            factorType: "totp",
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.125),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_100)
        )
        for round in 0..<400 {
            let dates = Self.dates(&random)
            func date() -> Date? { dates.randomElement(using: &random)! }
            func text() -> String? { round % 3 == 0 ? nil : Self.strings.randomElement(using: &random)! }
            let user = WireUser(
                id: UUID(),
                aud: text() ?? "authenticated",
                role: text() ?? "authenticated",
                email: text(),
                phone: text() ?? "",
                emailConfirmedAt: date(),
                phoneConfirmedAt: date(),
                confirmedAt: date(),
                confirmationSentAt: date(),
                invitedAt: date(),
                recoverySentAt: date(),
                newEmail: text(),
                emailChangeSentAt: date(),
                reauthenticationSentAt: date(),
                lastSignInAt: date(),
                appMetadata: round % 2 == 0
                    ? [:] : ["provider": .string("email"), "b/c": .array([.bool(true), .null])],
                userMetadata: round % 5 == 0
                    ? ["name": .string(text() ?? "x")]
                    : [
                        text() ?? "k": .string(text() ?? "v"),
                        "nested/": .object([
                            "z": .number(-0.1), "a": .number(1e21), "m": .array([.string(text() ?? "")]),
                        ]),
                        "n": .number([1, 1.5, 3e-7, 123_456_789_012][round % 4]),
                    ],
                identities: [nil, [], [identity, otherIdentity]][round % 3],
                factors: [nil, [], [factor]][round % 3],
                createdAt: date() ?? Date(),
                updatedAt: date() ?? Date(),
                bannedUntil: date(),
                deletedAt: date(),
                isAnonymous: round % 2 == 1
            )
            let expected = try encoder.encode(user)
            let written = try UserJSON.encode(user, encoder: encoder)
            #expect(
                written == Array(expected),
                "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))"
            )
            // The session that carries the user, as every grant of /token answers.
            let session = WireSession(
                accessToken: text() ?? "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln",
                tokenType: text() ?? "bearer",
                expiresIn: [3_600, 0, -1, Int.max][round % 4],
                expiresAt: [1_732_000_000, Int.min, 42][round % 3],
                refreshToken: text() ?? "v1.AbC-_dEf",
                user: user,
                weakPassword: [
                    nil, WeakPasswordInfo(reasons: []), WeakPasswordInfo(message: text(), reasons: ["pwned"]),
                ][
                    round % 3
                ]
            )
            let expectedSession = try encoder.encode(session)
            let writtenSession = try UserJSON.encode(session, encoder: encoder)
            #expect(
                writtenSession == Array(expectedSession),
                "\(String(decoding: writtenSession, as: UTF8.self))\n\(String(decoding: expectedSession, as: UTF8.self))"
            )
        }
    }

    @Test func timestampsAreFoundationsAtEveryMillisecondEdge() {
        var random = SystemRandomNumberGenerator()
        var mismatches: [Double] = []
        for index in 0..<200_000 {
            let seconds: Double =
                switch index % 3 {
                case 0: Double.random(in: 0..<4_102_444_800, using: &random)
                case 1: Double(Int.random(in: 0..<4_102_444_800_000, using: &random)) / 1000
                default: Double(Int.random(in: 0..<4_102_444_800_000_000, using: &random)) / 1_000_000
                }
            let date = Date(timeIntervalSince1970: seconds)
            if let fast = UserJSON.timestamp(date), fast != Array(WireCoding.formatTimestamp(date).utf8) {
                mismatches.append(seconds)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(UserJSON.timestamp(Date(timeIntervalSince1970: -1)) == nil, "before 1970: Foundation's")
        #expect(UserJSON.timestamp(Date(timeIntervalSince1970: 253_402_300_800)) == nil, "after 9999: Foundation's")
        for date in [Date.distantFuture, Date(timeIntervalSince1970: 253_402_300_799.999)] {
            #expect(UserJSON.timestamp(date) == Array(WireCoding.formatTimestamp(date).utf8))
        }
    }

    @Test func amrTextReadsWhatTheServerWritesAndTheDecoderReadsTheRest() throws {
        let lists: [[AMREntry]] = [
            [], [AMREntry(method: .password, timestamp: 1_732_000_000)],
            [AMREntry(method: .anonymous, timestamp: 0), AMREntry(method: .totp, timestamp: -5)],
            [AMREntry(method: .emailChange, timestamp: 999_999_999_999)],
        ]
        for list in lists {
            let text = JSONText.encode(list)
            #expect(AMRText.plain(text) == list, "\(text)")
            #expect(try AMRText.entries(text) == list)
        }
        // Every method the server writes reads back, through either path (`email/signup`'s
        // slash and a provider go to the decoder).
        for method in AuthenticationMethod.allCases {
            let list = [
                AMREntry(method: method, timestamp: 7), AMREntry(method: method, timestamp: 8, provider: .apple),
            ]
            #expect(try AMRText.entries(JSONText.encode(list)) == list, "\(method)")
        }
        // Anything else goes to the decoder, which reads it or throws.
        let other = #"[{"timestamp":5,"method":"p\u0061ssword"}]"#
        #expect(AMRText.plain(other) == nil)
        #expect(try AMRText.entries(other) == [AMREntry(method: .password, timestamp: 5)])
        for broken in [
            "", "[", "[{}]", #"[{"method":"otp","timestamp":01}]"#, #"[{"method":"otp","timestamp":1}]x"#, "nope",
        ] {
            #expect(AMRText.plain(broken) == nil, "\(broken)")
            #expect(throws: StoredValueError.self, "\(broken)") { try AMRText.entries(broken) }
        }
        #expect(try AMRText.entries(nil) == [])
    }

    /// A method this server does not write is an error naming the column and the value, on
    /// both paths: never dropped from the session (its tokens would lose it) nor replaced.
    @Test func amrTextRefusesAnUnknownMethod() {
        let unknown = [
            (#"[{"method":"web3","timestamp":1}]"#, "web3"),
            (#"[{"method":"otp","timestamp":1},{"method":"sso/saml","timestamp":2}]"#, "sso/saml"),
        ]
        for (text, method) in unknown {
            #expect(AMRText.plain(text) == nil)
            let error = #expect(throws: StoredValueError.self) { try AMRText.entries(text) }
            #expect(error?.column == "sessions.amr")
            #expect(error?.value == method)
        }
    }

    @Test func canonicalBase64URLDecodesAsTheGeneralDecoder() {
        for count in 0..<70 {
            let bytes = SecureRandom.bytes(count)
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.isCanonical(Substring(text)))
            #expect(Base64URL.decodeCanonical(Substring(text)) == bytes)
        }
        #expect(Base64URL.decodeCanonical("ab+c") == nil)
        #expect(Base64URL.decodeCanonical("abc=") == nil)
    }
}
