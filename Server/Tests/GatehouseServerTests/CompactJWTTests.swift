import Crypto
import Foundation
import JWTKit
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The byte-level cut of a token into its segments, and the header texts the verifier
/// remembers: only those of tokens whose signature verified, never more than its capacity.
@Suite("Compact JWT parsing")
struct CompactJWTTests {
    @Test func aTokenIsCutAtExactlyTwoDots() throws {
        let token = try #require(CompactJWT("aGVhZA.cGF5bG9hZA.c2ln"))
        #expect(token.header == "aGVhZA")
        #expect(token.payload == "cGF5bG9hZA")
        #expect(token.signature == "c2ln")
        #expect(token.signingInput == "aGVhZA.cGF5bG9hZA")
        #expect(token.isCanonical)
        let empty = try #require(CompactJWT(".."))
        #expect(empty.header.isEmpty && empty.payload.isEmpty && empty.signature.isEmpty)
        for shape in ["", "abc", "a.b", "a.b.c.d", "a..b.c", "...."] {
            #expect(CompactJWT(shape) == nil, "\(shape)")
        }
        // A character that is not base64url, in any segment, is not canonical.
        #expect(CompactJWT("a%.b.c")?.isCanonical == false)
        #expect(CompactJWT("ab.cé.cd")?.isCanonical == false)
        #expect(CompactJWT("ab.cd.c=")?.isCanonical == false)
    }

    /// An HS256 token for `kid` over `claims`, with `header` spelled as given.
    static func token(header: String, claims: String, key: SymmetricKey) -> String {
        let input = JWTTests.base64URL(Data(header.utf8)) + "." + JWTTests.base64URL(Data(claims.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: key)
        return input + "." + JWTTests.base64URL(Data(mac))
    }

    @Test func aHeaderIsRememberedOnlyAfterItsSignatureVerified() async throws {
        let secret = "a-secret-of-thirty-two-bytes-at-least"
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: "k1")
        let verifier = AccessTokenVerifier(algorithms: ["k1": try await keys.getKey(for: "k1")])
        let claims = #"{"exp":4102444800,"iss":"i","sub":"s","role":"authenticated","aud":"authenticated"}"#
        let header = #"{"alg":"HS256","kid":"k1","typ":"JWT"}"#
        let good = Self.token(header: header, claims: claims, key: SymmetricKey(data: Data(secret.utf8)))
        let forged = Self.token(header: header, claims: claims, key: SymmetricKey(data: Data("attacker".utf8)))

        // A forged signature under the header: refused, and the header is not remembered.
        await #expect(throws: (any Error).self) { try await verifier.verify(try #require(CompactJWT(forged))) }
        #expect(verifier.headers.kid(of: try #require(CompactJWT(forged)).header) == nil)
        // The real token verifies, and then its header is known.
        let verified = try await verifier.verify(try #require(CompactJWT(good)))
        #expect(verified?.sub == "s")
        #expect(verifier.headers.kid(of: try #require(CompactJWT(good)).header) == "k1")
        // A remembered header vouches for nothing: the forged token is still refused.
        await #expect(throws: (any Error).self) { try await verifier.verify(try #require(CompactJWT(forged))) }
        // A header naming a key that is not ours is left to the collection.
        let other = Self.token(
            header: #"{"alg":"HS256","kid":"k2","typ":"JWT"}"#,
            claims: claims,
            key: SymmetricKey(data: Data(secret.utf8))
        )
        #expect(try await verifier.verify(try #require(CompactJWT(other))) == nil)
    }

    @Test func rememberedHeadersAreBounded() {
        let kids = HeaderKids()
        for index in 0..<(HeaderKids.capacity + 50) {
            kids.remember(Substring("header-\(index)"), kid: "k")
        }
        #expect(kids.kid(of: "header-0") == "k")
        #expect(kids.kid(of: Substring("header-\(HeaderKids.capacity - 1)")) == "k")
        #expect(kids.kid(of: Substring("header-\(HeaderKids.capacity)")) == nil)
    }
}
