/// What a sign-up produced.
public enum SignUpOutcome: Sendable, Equatable {
    /// The account is ready and signed in.
    case signedIn(Session)
    /// The account needs its e-mail confirmed: a code was sent to the address.
    case confirmationRequired(User)
}
