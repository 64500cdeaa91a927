import Foundation
import GatehouseCore
import GatehouseServerSupport
import HTTPTypes
import JWTKit

/// Checks an Apple or Google ID token of the ID-token grant (security.md section 7): the token's
/// checks (``IDTokenCheck``: signature by the provider's published key named in the header,
/// `iss`, `aud` and Google's `azp` among the configured client ids, `exp`/`nbf`/`iat` within the
/// leeway), then the nonce. Each failure is a 400 with a message that says which check failed; a
/// key-set outage is a 503.
struct IDTokenVerifier: Sendable {
    let provider: IdentityProvider
    let settings: IdentityProviderSettings
    let keys: ProviderKeySet
    let leeway: TimeInterval

    /// The token's checks, with this provider's issuers and the server's client ids.
    var check: IDTokenCheck {
        IDTokenCheck(
            displayName: provider.displayName,
            issuers: provider.issuers,
            audiences: settings.clientIDs,
            checksAuthorizedPresenter: provider == .google,
            keys: keys,
            leeway: leeway
        )
    }

    func verify(_ token: String, rawNonce: String?, now: Date) async throws -> VerifiedIDToken {
        let claims = try await check.claims(of: token, now: now)
        let nonceHash = try checkNonce(claims.nonce, rawNonce: rawNonce)
        let subject = claims.subject ?? ""
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

    /// The decoded JOSE header, read only to pick a key.
    static func header(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384 else {
            throw APIError(.badRequest, .idTokenInvalid, "The ID token is not a signed JWT.")
        }
        guard let data = Base64URL.data(String(parts[0])),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw APIError(.badRequest, .idTokenInvalid, "The ID token's header is not readable.")
        }
        return object
    }
}
