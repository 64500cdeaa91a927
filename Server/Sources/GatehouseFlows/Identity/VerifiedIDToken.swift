import Foundation

/// An ID token that passed every check, reduced to what sign-in needs.
struct VerifiedIDToken: Sendable {
    var provider: IdentityProvider
    var claims: IDTokenClaims
    /// The provider's `sub`.
    var subject: String
    /// The normalized address in the token, if any.
    var email: String?
    /// Whether the provider vouches for `email` (see ``IdentityProvider/vouchesForEmail(in:)``).
    var emailIsVouched: Bool
    /// The token's nonce claim, lowercased (the SHA-256 hex of the raw nonce, or for Google
    /// possibly the raw nonce itself), consumed when sign-in succeeds.
    var nonceHash: String
    /// When the token expires: the nonce stays used until then.
    var expiresAt: Date
}
