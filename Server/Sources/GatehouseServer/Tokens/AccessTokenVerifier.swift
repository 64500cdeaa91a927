import Foundation
import JWTKit

/// Checks the signature of our own access tokens with the key their `kid` names, on the
/// caller's thread: the same checks as ``JWTKeyCollection/verify(_:as:iteratingKeys:)`` (a
/// JSON header, the named key's algorithm over `header.payload`, then the claims decoded),
/// without hopping onto and off the collection's actor for every request.
///
/// It holds the verifying algorithm of each of our keys, taken from the collection once at
/// start; a token naming no key of ours is left to the collection (``verify(_:)`` returns `nil`),
/// which falls back to its default key exactly as before.
struct AccessTokenVerifier: Sendable {
    /// `kid` → the algorithm that verifies its signatures.
    let algorithms: [String: any JWTAlgorithm]
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
    func verify(_ token: String) async throws -> VerifiedAccess? {
        let segments = token.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard segments.count == 3, let header = Base64URL.decodeCanonical(segments[0]) else {
            throw JWTError.malformedToken(reason: "Token is not split in 3 parts")
        }
        let fields = try decoder.decode(JWTHeader.self, from: Data(header))
        guard let kid = fields.kid, let algorithm = algorithms[kid] else { return nil }
        guard let signature = Base64URL.decodeCanonical(segments[2]),
            let payload = Base64URL.decodeCanonical(segments[1])
        else { throw JWTError.malformedToken(reason: "Token is not base64url") }
        let signingInput = token.utf8[..<segments[1].endIndex]
        guard try algorithm.verify(signature, signs: Array(signingInput)) else {
            throw JWTError.signatureVerificationFailed
        }
        let claims = try decoder.decode(VerifiedAccess.self, from: Data(payload))
        try await claims.verify(using: algorithm)
        return claims
    }
}
