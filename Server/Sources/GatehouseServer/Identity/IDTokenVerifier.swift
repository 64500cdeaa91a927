import Foundation
import GatehouseCore
import HTTPTypes
import JWTKit

/// Checks an Apple or Google ID token (security.md section 7): signature by the provider's
/// published key named in the header, `iss`, `aud` (and Google's `azp`) among the configured
/// client ids, `exp`/`nbf`/`iat` within the leeway, and the nonce. Each failure is a 400 with a
/// message that says which check failed; a key-set outage is a 503.
struct IDTokenVerifier: Sendable {
    let provider: IdentityProvider
    let settings: IdentityProviderSettings
    let keys: ProviderKeySet
    let leeway: TimeInterval

    func verify(_ token: String, rawNonce: String?, now: Date) async throws -> VerifiedIDToken {
        let header = try Self.header(of: token)
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
                    "\(provider.displayName)'s signing keys could not be fetched. Try again in a minute.",
                    retryAfter: 60
                )
            case .unknownKey: throw invalid("is signed by a key \(provider.displayName) does not publish")
            case .wrongAlgorithm: throw invalid("uses an algorithm its key does not have (\(alg))")
            case .badSignature: throw invalid("has a signature that does not verify")
            }
        }
        try check(claims, now: now)
        let nonceHash = try checkNonce(claims.nonce, rawNonce: rawNonce)
        guard let subject = claims.subject, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw invalid("has no usable subject (sub)")
        }
        let email = claims.email.flatMap { try? EmailAddress.normalized($0) }
        return VerifiedIDToken(
            provider: provider,
            claims: claims,
            subject: subject,
            email: email,
            emailIsVouched: email != nil && provider.vouchesForEmail(in: claims),
            nonceHash: nonceHash,
            expiresAt: Date(timeIntervalSince1970: claims.expires ?? now.timeIntervalSince1970)
        )
    }

    private func check(_ claims: IDTokenClaims, now: Date) throws {
        guard let issuer = claims.issuer, provider.issuers.contains(issuer) else {
            throw invalid("was not issued by \(provider.displayName) (iss)")
        }
        let audiences = claims.audience?.value ?? []
        guard !audiences.isEmpty, audiences.allSatisfy(settings.clientIDs.contains) else {
            throw invalid("is for another app (aud is not one of this server's client ids)")
        }
        if provider == .google, let presenter = claims.authorizedPresenter,
            !settings.clientIDs.contains(presenter)
        {
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

    /// The client sends the raw nonce; the token carries its SHA-256 hex (Apple's convention,
    /// and the only form Apple's tokens may use). GoogleSignIn on iOS (8.1 and later) puts the
    /// app's nonce into the token as is, so a Google token may also carry the raw nonce itself.
    /// Both are required: a token without a nonce could be replayed by whoever saw it.
    ///
    /// Returns the key under which the nonce is consumed: the token's own nonce claim
    /// (lowercased), whichever form matched. Keying on the claim, not on what the client sent,
    /// keeps a token single use: a Google token carrying `H = sha256(r)` cannot be replayed by
    /// sending `H` itself as the raw nonce.
    private func checkNonce(_ tokenNonce: String?, rawNonce: String?) throws -> String {
        guard let rawNonce, !rawNonce.isEmpty else {
            throw APIError(
                .badRequest,
                .idTokenNonceInvalid,
                "A nonce is required: send the raw nonce whose SHA-256 the ID token request carried."
            )
        }
        guard let tokenNonce, !tokenNonce.isEmpty else {
            throw APIError(
                .badRequest,
                .idTokenNonceInvalid,
                "The ID token has no nonce, but one was sent: request the token with the nonce's SHA-256."
            )
        }
        let key = tokenNonce.lowercased()
        if Hex.sha256(rawNonce) == key { return key }
        if provider.acceptsRawNonce, rawNonce == tokenNonce { return key }
        throw APIError(
            .badRequest,
            .idTokenNonceInvalid,
            provider.acceptsRawNonce
                ? "The nonce does not match the ID token's: send the nonce the app gave \(provider.displayName)."
                : "The nonce does not match the ID token's: send the raw nonce, not its hash, and request "
                    + "the token with the nonce's SHA-256."
        )
    }

    private func invalid(_ problem: String) -> APIError {
        APIError(.badRequest, .idTokenInvalid, "The \(provider.displayName) ID token \(problem).")
    }

    /// The decoded JOSE header, read only to pick a key.
    static func header(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384 else {
            throw APIError(.badRequest, .idTokenInvalid, "The ID token is not a signed JWT.")
        }
        var base64 = parts[0].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw APIError(.badRequest, .idTokenInvalid, "The ID token's header is not readable.")
        }
        return object
    }
}
