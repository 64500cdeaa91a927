import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import JWTKit
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The signer that makes every access token without jwt-kit's key collection: the same
/// header and claims bytes jwt-kit writes, a signature jwt-kit verifies, and claims JSON
/// that matches jwt-kit's encoder for any text or metadata a user can store.
@Suite("Access token signer")
struct AccessTokenSignerTests {
    /// Claims as a sign-in makes them, with metadata a user could have written.
    static func claims(
        appMetadata: [String: JSONValue] = ["provider": "email", "providers": ["email"]],
        userMetadata: [String: JSONValue] = [:],
        amr: [AMREntry] = [AMREntry(method: .password, timestamp: 1_795_700_000)],
        sessionID: String? = "6f1c2d4e-1111-4a2b-9c3d-5e6f7a8b9c0d"
    ) -> AccessClaims {
        AccessClaims(
            aud: "authenticated",
            exp: 1_795_703_600,
            iat: 1_795_700_000,
            iss: "http://localhost:9999/auth/v1",
            sub: "2a8016ae-7572-4a9b-becb-62e9a5236120",
            email: "ada@example.com",
            role: "authenticated",
            amr: amr,
            sessionID: sessionID,
            isAnonymous: false,
            appMetadata: appMetadata,
            userMetadata: userMetadata
        )
    }

    /// jwt-kit's own encoding of `claims` (its default encoder).
    static func jwtKitJSON(_ claims: AccessClaims) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return Array(try encoder.encode(claims))
    }

    /// `json` parsed, for comparing JSON whose members come in another order (the encoder
    /// takes them from a dictionary, so its order changes from run to run).
    static func parsed(_ json: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(json)) as? NSDictionary)
    }

    /// Every ASCII character, escapes and all, and text beyond ASCII.
    static let texts = [
        String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self), "", "Zoë 東京 🦊", "a/b\\c\"d",
        "\u{2028}\u{2029}\u{7F}", "http://x/y?z=1&w=</script>",
    ]

    @Test func textIsEscapedByteForByteAsTheEncoderEscapesIt() throws {
        for text in Self.texts {
            var json = JSONBytes()
            json.string(text)
            #expect(json.bytes == Array(try JSONEncoder().encode(text)), "\(Array(text.utf8))")
        }
        var json = JSONBytes()
        try json.value(.array([.number(3), .number(12.5), .number(-0.000_001), .number(1e300), .bool(false), .null]))
        #expect(
            json.bytes == Array(try JSONEncoder().encode([3, 12.5, -0.000_001, 1e300] as [Double]).dropLast())
                + Array(",false,null]".utf8)
        )
    }

    @Test func claimsAreTheJSONJWTKitsEncoderWritesForThem() throws {
        for text in Self.texts {
            var claims = Self.claims(
                userMetadata: ["name": .string(text), text: .array([.string(text), .null, .bool(true)])]
            )
            claims.email = text
            claims.iss = text
            claims.sessionID = nil
            #expect(try Self.parsed(claims.json()) == Self.parsed(Self.jwtKitJSON(claims)), "\(Array(text.utf8))")
            #expect(try JSONDecoder().decode(AccessClaims.self, from: Data(claims.json())) == claims)
        }
        // Numbers, nesting, optionals present and absent, an `amr` entry with a provider.
        let nested: [String: JSONValue] = [
            "plan": .object(["seats": .number(3), "price": .number(12.5), "ratio": .number(-0.000_001)]),
            "flags": .array([.bool(false), .number(1e300), .number(-7), .object([:]), .array([])]),
            "none": .null,
        ]
        var full = Self.claims(
            appMetadata: nested,
            userMetadata: ["deep": .object(["deeper": .object(["deepest": .string("end")])])],
            amr: [
                AMREntry(method: .oauth, timestamp: 1_795_700_000, provider: .apple),
                AMREntry(method: .totp, timestamp: -1),
            ]
        )
        full.nbf = 1_795_700_000
        full.jti = "4f6b1c0e-0000-4000-8000-000000000000"
        full.isAnonymous = true
        full.aal = .aal2
        let bare = Self.claims(appMetadata: [:], amr: [], sessionID: nil)
        for claims in [full, bare] {
            #expect(try Self.parsed(claims.json()) == Self.parsed(Self.jwtKitJSON(claims)))
            #expect(try JSONDecoder().decode(AccessClaims.self, from: Data(claims.json())) == claims)
        }
        // Members in declaration order, optionals left out when absent.
        #expect(
            String(decoding: try bare.json(), as: UTF8.self).hasPrefix(
                #"{"aud":"authenticated","exp":1795703600,"iat":1795700000,"iss":"http:\/\/localhost:9999\/auth\/v1","sub":"#
            )
        )
        #expect(
            String(decoding: try bare.json(), as: UTF8.self).hasSuffix(
                #""amr":[],"is_anonymous":false,"app_metadata":{},"user_metadata":{}}"#
            )
        )
    }

    @Test func aNumberJSONCannotHoldIsRefusedAsTheEncoderRefusesIt() throws {
        for number in [Double.infinity, -Double.infinity, Double.nan] {
            let claims = Self.claims(userMetadata: ["n": .number(number)])
            #expect(throws: EncodingError.self) { try claims.json() }
            #expect(throws: EncodingError.self) { try Self.jwtKitJSON(claims) }
        }
    }

    @Test(arguments: ["ES256", "HS256"])
    func tokensMatchJWTKitsAndVerifyWithTheCollection(algorithm: String) async throws {
        let keys = JWTKeyCollection()
        let kid = "k-\(algorithm.lowercased())"
        if algorithm == "ES256" {
            await keys.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: kid))
        } else {
            await keys.add(
                hmac: HMACKey(from: "a-secret-of-thirty-two-bytes-at-least"),
                digestAlgorithm: .sha256,
                kid: JWKIdentifier(string: kid)
            )
        }
        let signer = try AccessTokenSigner(algorithm: try await keys.getKey(for: JWKIdentifier(string: kid)), kid: kid)
        let claims = Self.claims(userMetadata: ["name": "Ada / Lovelace"])

        let ours = try signer.sign(claims)
        let theirs = try await keys.sign(claims, kid: JWKIdentifier(string: kid))
        let ourParts = ours.split(separator: ".", omittingEmptySubsequences: false)
        let theirParts = theirs.split(separator: ".", omittingEmptySubsequences: false)
        #expect(ourParts.count == 3)
        // The header and the claims are the JSON jwt-kit writes (its members' order varies).
        for (our, their) in zip(ourParts.prefix(2), theirParts.prefix(2)) {
            let ours = try Self.parsed(try #require(Base64URL.decode(String(our))))
            #expect(ours == (try Self.parsed(try #require(Base64URL.decode(String(their))))))
        }
        #expect(
            try Self.parsed(try #require(Base64URL.decode(String(ourParts[0])))) == [
                "alg": algorithm, "typ": "JWT", "kid": kid,
            ]
        )
        // The collection verifies our signature, and refuses it once a byte of the claims changes.
        let verified = try await keys.verify(ours, as: AccessClaims.self)
        #expect(verified == claims)
        var tampered = Array(ourParts[1].utf8)
        tampered[10] = tampered[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let forged = "\(ourParts[0]).\(String(decoding: tampered, as: UTF8.self)).\(ourParts[2])"
        await #expect(throws: (any Error).self) { try await keys.verify(forged, as: AccessClaims.self) }
    }
}
