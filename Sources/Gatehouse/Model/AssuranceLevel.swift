/// How strongly a session proved who the user is, and how strongly it can: GoTrue's
/// authenticator assurance levels (`aal` in the access token).
///
/// ```swift
/// if auth.mfa.assuranceLevel?.isSecondFactorRequired == true { showCodeEntry() }
/// ```
public struct AssuranceLevel: Sendable, Hashable, Codable {
    /// One level: ``AuthenticatorAssuranceLevel``, the vocabulary the server shares.
    public typealias Level = AuthenticatorAssuranceLevel

    /// The session's level.
    public var current: Level
    /// The level the user can reach: `aal2` when the user has a verified factor.
    public var next: Level

    /// Creates a value.
    public init(current: Level, next: Level) {
        self.current = current
        self.next = next
    }

    /// Whether the user must enter a code of their authenticator app before the sign-in is
    /// complete (the session is below the level the user's factors reach).
    public var isSecondFactorRequired: Bool { current < next }
}
