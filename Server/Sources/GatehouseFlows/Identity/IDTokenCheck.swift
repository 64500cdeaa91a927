import Foundation
import GatehouseCore
import GatehouseServerSupport
import HTTPTypes
import JWTKit

/// Checks an ID token for one issuer and audience (security.md sections 6 and 7): the signature
/// by the key the header names in the provider's published set, `iss` among the provider's
/// issuers, every `aud` one of the server's client ids (and `azp`, when present and asked for,
/// too), `exp`/`nbf`/`iat` within the leeway, and a usable `sub`. Each failure is a 400
/// `id_token_invalid` whose message says which check failed; a key-set outage is a 503. The
/// nonce is the caller's (the ID-token grant and the web sign-in compare it differently).
struct IDTokenCheck: Sendable {
    /// The provider's name people know ("Google"), for messages.
    let displayName: String
    /// The `iss` values the provider signs with.
    let issuers: Set<String>
    /// The client ids a token may be for (`aud`).
    let audiences: [String]
    /// Whether a token's `azp` (Google's authorized presenter), when present, must be a client id too.
    let checksAuthorizedPresenter: Bool
    let keys: ProviderKeySet
    let leeway: TimeInterval

    /// The token's claims once its signature and claims passed; `sub` is non-empty and at most
    /// 255 bytes.
    func claims(of token: String, now: Date) async throws -> IDTokenClaims {
        let header = try IDTokenVerifier.header(of: token)
        guard let kid = header["kid"] as? String, !kid.isEmpty else { throw invalid("has no key id (kid)") }
        guard let alg = header["alg"] as? String else { throw invalid("has no algorithm (alg)") }
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, kid: kid, alg: alg, now: now)
        } catch let failure as ProviderKeySet.Failure {
            switch failure {
            case .unavailable:
                throw APIError(
                    .serviceUnavailable,
                    .providerUnavailable,
                    "\(displayName)'s signing keys could not be fetched. Try again in a minute.",
                    retryAfter: 60
                )
            case .unknownKey: throw invalid("is signed by a key \(displayName) does not publish")
            case .wrongAlgorithm: throw invalid("uses an algorithm its key does not have (\(alg))")
            case .badSignature: throw invalid("has a signature that does not verify")
            }
        }
        try check(claims, now: now)
        guard let subject = claims.subject, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw invalid("has no usable subject (sub)")
        }
        return claims
    }

    private func check(_ claims: IDTokenClaims, now: Date) throws {
        guard let issuer = claims.issuer, issuers.contains(issuer) else {
            throw invalid("was not issued by \(displayName) (iss)")
        }
        let tokenAudiences = claims.audience?.value ?? []
        guard !tokenAudiences.isEmpty, tokenAudiences.allSatisfy(audiences.contains) else {
            throw invalid("is for another app (aud is not one of this server's client ids)")
        }
        if checksAuthorizedPresenter, let presenter = claims.authorizedPresenter, !audiences.contains(presenter) {
            throw invalid("was requested by another app (azp is not one of this server's client ids)")
        }
        let seconds = now.timeIntervalSince1970
        guard let expires = claims.expires else { throw invalid("has no expiry (exp)") }
        guard seconds <= expires + leeway else { throw invalid("has expired (exp)") }
        if let notBefore = claims.notBefore, seconds + leeway < notBefore {
            throw invalid("is not valid yet (nbf)")
        }
        if let issuedAt = claims.issuedAt, issuedAt > seconds + leeway {
            throw invalid("was issued in the future (iat)")
        }
    }

    /// 400 `id_token_invalid`: "The <provider> ID token <problem>."
    func invalid(_ problem: String) -> APIError {
        APIError(.badRequest, .idTokenInvalid, "The \(displayName) ID token \(problem).")
    }
}
