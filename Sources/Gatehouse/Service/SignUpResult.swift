/// What ``AuthService/signUp(email:password:)`` achieved.
public enum SignUpResult: Sendable, Equatable {
    /// The user is signed in (for a guest: upgraded in place, same id).
    case signedIn(User)
    /// A confirmation code was sent to the address; call
    /// ``AuthService/confirmSignUp(email:code:)`` with it.
    case confirmationRequired(email: String)
}
