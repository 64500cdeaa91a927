import Foundation
import GatehouseCore
import JWTKit

/// Signs access tokens with our signing key on the caller's thread: the token jwt-kit's
/// ``JWTKeyCollection/sign(_:kid:header:)`` makes (the same header, claims and signature),
/// without a hop onto and off the collection's actor, a header encoded again for every token,
/// or the JSON encoder's per-call setup for the claims (``AccessClaims/json()``). Every grant
/// of `/token` signs one, a refresh above all.
struct AccessTokenSigner: Sendable {
    /// The signing key's algorithm, taken from the key collection.
    let algorithm: any JWTAlgorithm
    /// `base64url(header).`, the same for every token.
    private let headerPrefix: [UInt8]

    /// - Throws: When the header does not encode (it always does).
    init(algorithm: any JWTAlgorithm, kid: String) throws {
        self.algorithm = algorithm
        var header = JWTHeader()
        header.alg = algorithm.name
        header.typ = "JWT"
        header.kid = kid
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        var prefix: [UInt8] = []
        Base64URL.append(Array(try encoder.encode(header)), to: &prefix)
        prefix.append(UInt8(ascii: "."))
        headerPrefix = prefix
    }

    /// The compact JWT of `claims`.
    ///
    /// - Throws: When a metadata number cannot be written or the key fails to sign.
    func sign(_ claims: AccessClaims) throws -> String {
        var token = headerPrefix
        token.reserveCapacity(1_024)
        Base64URL.append(try claims.json(), to: &token)
        let signature = try algorithm.sign(token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &token)
        return String(decoding: token, as: UTF8.self)
    }
}
