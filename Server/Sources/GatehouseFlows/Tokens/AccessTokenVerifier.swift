import Foundation
import GatehouseCore
import JWTKit
import Synchronization

/// Checks the signature of our own access tokens with the key their `kid` names, on the
/// caller's thread: the same checks as ``JWTKeyCollection/verify(_:as:iteratingKeys:)`` (a
/// JSON header, the named key's algorithm over `header.payload`, then the claims decoded),
/// without hopping onto and off the collection's actor for every request.
///
/// It holds the verifying algorithm of each of our keys, taken from the collection once at
/// start; a token naming no key of ours is left to the collection (``verify(_:)`` returns `nil`),
/// which falls back to its default key exactly as before.
///
/// Every token one key signs carries the same few header texts, so the `kid` a header text
/// names is remembered (``HeaderKids``) once a token with that header has verified: decoding
/// the same bytes again could only give the same answer, and a header never seen with a valid
/// signature is still decoded in full.
struct AccessTokenVerifier: Sendable {
    /// `kid` → the algorithm that verifies its signatures.
    let algorithms: [String: any JWTAlgorithm]
    /// Header texts seen on verified tokens (internal for tests).
    let headers = HeaderKids()
    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    init(algorithms: [String: any JWTAlgorithm]) {
        self.algorithms = algorithms
    }

    /// The verified claims of `token`, whose three segments are canonical base64url (checked by
    /// ``TokenService/verify(_:now:allowProjectKey:)``); `nil` when its `kid` is not one of ours.
    ///
    /// - Throws: When the header or claims do not decode or the signature does not verify.
    func verify(_ token: CompactJWT) async throws -> VerifiedAccess? {
        let kid: String
        if let known = headers.kid(of: token.header) {
            kid = known
        } else {
            guard let header = Base64URL.decodeCanonical(token.header) else {
                throw JWTError.malformedToken(reason: "Token is not base64url")
            }
            guard let named = try decoder.decode(JWTHeader.self, from: Data(header)).kid else { return nil }
            kid = named
        }
        guard let algorithm = algorithms[kid] else { return nil }
        guard let signature = Base64URL.decodeCanonical(token.signature),
            let payload = Base64URL.decodeCanonical(token.payload)
        else { throw JWTError.malformedToken(reason: "Token is not base64url") }
        guard try algorithm.verify(signature, signs: Array(token.signingInput.utf8)) else {
            throw JWTError.signatureVerificationFailed
        }
        headers.remember(token.header, kid: kid)
        let claims = try decoder.decode(VerifiedAccess.self, from: Data(payload))
        try await claims.verify(using: algorithm)
        return claims
    }
}

/// Header texts of tokens that verified, and the `kid` each names: at most ``capacity``, so
/// even a flood of differently spelled valid headers holds a few kilobytes.
final class HeaderKids: Sendable {
    static let capacity = 64
    private let known = Mutex<[Substring: String]>([:])

    /// The `kid` of a header text seen before on a verified token.
    func kid(of header: Substring) -> String? {
        known.withLock { $0[header] }
    }

    /// Remembers that `header` names `kid` (a detached copy of the text, not the token).
    func remember(_ header: Substring, kid: String) {
        known.withLock { headers in
            guard headers[header] == nil, headers.count < Self.capacity else { return }
            headers[Substring(String(header))] = kid
        }
    }
}
