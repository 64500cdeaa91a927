/// How a session authenticated: the `method` of an entry of the `amr` claim and of the
/// `sessions.amr` column, in GoTrue's names. The flow that opens a session decides its first
/// entry; a second factor or a passkey adds one.
///
/// A stored method this build does not know is an error when the row is read
/// (``StoredValueError``), never dropped or replaced.
public enum AuthenticationMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// A password sign-in (`grant_type=password`), or a sign-up with a password that signs in.
    case password
    /// An e-mailed one-time code or magic link (`magiclink`), or a reauthentication code.
    case otp
    /// A provider's sign-in: the browser flow's callback, or an ID token (Apple, Google); the
    /// entry names the provider.
    case oauth
    /// A passkey's assertion, or a guest's session after it registered one.
    case passkey
    /// An authenticator app's code (the session is AAL2 with it).
    case totp
    /// An anonymous sign-in (a guest user).
    case anonymous
    /// A sign-up confirmation code or link.
    case emailSignup = "email/signup"
    /// A recovery code or link.
    case recovery
    /// An address change's code or link.
    case emailChange = "email_change"
    /// An invitation's code or link.
    case invite
}
