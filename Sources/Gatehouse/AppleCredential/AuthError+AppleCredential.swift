extension AuthError {
    /// Sign in with Apple says the signed-in user's Apple ID no longer authorizes the app on
    /// this device (`revoked` or `notFound`): the session was ended here.
    public static func appleCredentialRevoked(_ state: AppleCredentialState) -> AuthError {
        AuthError(
            code: .appleCredentialRevoked,
            message: state == .notFound
                ? "This device's Apple ID no longer knows your Sign in with Apple account, so you were signed out."
                : "Sign in with Apple was turned off for this app, so you were signed out.",
            recoverySuggestion: "Sign in again."
        )
    }

    /// Sign in with Apple answered with a state this version of the SDK does not know.
    static func appleCredentialStateUnknown() -> AuthError {
        AuthError(
            code: .invalidResponse,
            message: "Sign in with Apple answered with a credential state this app does not know.",
            recoverySuggestion: "Update the app."
        )
    }

    /// Sign in with Apple did not answer within the configured time.
    static func appleCredentialCheckTimedOut() -> AuthError {
        AuthError(
            code: .requestTimeout,
            message: "Sign in with Apple did not answer in time.",
            isRetryable: true
        )
    }
}
