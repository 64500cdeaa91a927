public import Foundation

/// An ID token from Sign in with Apple or Google Sign-In.
public struct IDTokenCredential: Sendable, Equatable {
    /// The identity provider.
    public enum Provider: String, Sendable, Equatable, CaseIterable {
        /// Sign in with Apple.
        case apple
        /// Google Sign-In.
        case google
    }

    /// Who issued the token.
    public var provider: Provider
    /// The JWT the provider returned.
    public var idToken: String
    /// The raw nonce (``SignInNonce/raw``): the token carries its SHA-256 (Apple) or, from
    /// GoogleSignIn, the raw nonce itself.
    public var nonce: String?
    /// The provider's access token (Google), when available.
    public var accessToken: String?
    /// Apple's one-time authorization code (`ASAuthorizationAppleIDCredential.authorizationCode`).
    public var authorizationCode: String?
    /// The name Apple gives on the first authorization only; the server keeps it in the
    /// user's metadata when those fields are empty.
    public var fullName: PersonNameComponents?

    /// Creates a credential.
    public init(
        provider: Provider,
        idToken: String,
        nonce: String? = nil,
        accessToken: String? = nil,
        authorizationCode: String? = nil,
        fullName: PersonNameComponents? = nil
    ) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
        self.accessToken = accessToken
        self.authorizationCode = authorizationCode
        self.fullName = fullName
    }

    /// The token's `sub` (unverified: the server verifies the token), the provider's identifier
    /// of the person; for Apple, the user identifier Sign in with Apple knows on this device.
    public var subject: String? { AccessTokenClaims.subject(of: idToken) }

    /// The Apple user a session `new` opened with this credential was signed in as, for the
    /// credential check (``Session/appleSignInUserID``); `nil` for Google.
    func appleSignInUserID(of new: Session) -> String? {
        guard provider == .apple else { return nil }
        return subject ?? new.user.appleUserID
    }
}
