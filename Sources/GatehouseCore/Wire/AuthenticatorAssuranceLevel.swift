/// How strongly a session proved who its user is: GoTrue's authenticator assurance level, the
/// `aal` claim of access tokens. The server stores it with each session; the SDK reads it from
/// the token (`AssuranceLevel`).
public enum AuthenticatorAssuranceLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// One factor: a password, an e-mailed code, a provider's sign-in (Apple, Google), a
    /// passkey, a guest's.
    case aal1
    /// Besides, a second factor's code was verified in the session (an authenticator app's).
    case aal2

    /// `aal1` is below `aal2`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .aal1 && rhs == .aal2 }
}
