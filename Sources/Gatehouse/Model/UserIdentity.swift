/// A way the user signs in that a provider vouches for: the e-mail address, Sign in with
/// Apple, Google (the user object's `identities`).
public struct UserIdentity: Sendable, Hashable, Codable {
    /// The provider: `email`, `apple`, `google`, …
    public var provider: String
    /// The provider's stable identifier of the person (the ID token's `sub`). For Apple this is
    /// the user identifier Sign in with Apple gives the app (`ASAuthorizationAppleIDCredential.user`).
    public var subject: String
    /// The address the provider gave, if any.
    public var email: String?

    /// Creates an identity value.
    public init(provider: String, subject: String, email: String? = nil) {
        self.provider = provider
        self.subject = subject
        self.email = email
    }
}

extension UserIdentity {
    /// Creates an identity from the GoTrue wire representation (whose `id` is the subject).
    public init(wire: WireIdentity) {
        self.init(provider: wire.provider, subject: wire.id, email: wire.email)
    }
}

extension User {
    /// The user identifier Sign in with Apple knows this user by (the `sub` of the Apple
    /// identity), or `nil` when the user has no Apple identity.
    public var appleUserID: String? {
        identities.first { $0.provider == "apple" }?.subject
    }
}
