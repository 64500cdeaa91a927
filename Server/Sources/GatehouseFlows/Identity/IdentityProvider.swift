import GatehouseStorage
import JWTKit

/// A provider whose ID tokens the server accepts (`POST /token?grant_type=id_token`).
enum IdentityProvider: String, Sendable, CaseIterable {
    case apple
    case google

    /// The provider's name in storage (identities, used nonces) and on the wire.
    var name: AuthProvider { AuthProvider(rawValue: rawValue) }

    /// The `iss` values the provider signs with.
    var issuers: Set<String> {
        switch self {
        case .apple: ["https://appleid.apple.com"]
        case .google: ["accounts.google.com", "https://accounts.google.com"]
        }
    }

    /// The name people know.
    var displayName: String {
        switch self {
        case .apple: "Apple"
        case .google: "Google"
        }
    }

    /// The provider as a way into an account, in a notice ("Sign in with Apple").
    var wayIn: String { "Sign in with \(displayName)" }

    /// Whether a token's `nonce` may be the raw nonce itself besides its SHA-256 hex: Google's,
    /// because GoogleSignIn on iOS (8.1 and later) does not hash the nonce it is given. Apple's
    /// tokens carry the hash only.
    var acceptsRawNonce: Bool { self == .google }

    /// Whether the provider vouches for the token's e-mail address, so that it may confirm an
    /// address or link to an account that has it (security.md AP-4, GG-3): Apple when
    /// `email_verified`; Google when `email_verified` and the address is Gmail's or the
    /// token names a Workspace domain (`hd`).
    func vouchesForEmail(in claims: IDTokenClaims) -> Bool {
        guard let email = claims.email, claims.emailVerified?.value == true else { return false }
        switch self {
        case .apple: return true
        case .google: return email.lowercased().hasSuffix("@gmail.com") || !(claims.hostedDomain ?? "").isEmpty
        }
    }
}
