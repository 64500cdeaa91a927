/// How strongly a session proved who its user is: GoTrue's authenticator assurance level, the
/// `aal` claim of its access tokens and the `sessions.aal` column.
///
/// A stored level this build does not know is an error when the row is read
/// (``StoredValueError``), never read as `aal1` or `aal2`: either guess would be a silent
/// downgrade or upgrade of the session.
public enum AuthenticatorAssuranceLevel: String, Sendable, Hashable, Codable, CaseIterable {
    /// One factor: a password, an e-mailed code, a provider's sign-in, a passkey, a guest's.
    case aal1
    /// Besides, a second factor's code was verified in the session (its ``SessionRecord/factorID``).
    case aal2
}
