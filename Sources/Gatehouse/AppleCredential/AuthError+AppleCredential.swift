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

    /// The error domain of `ASAuthorizationError` (`ASAuthorizationErrorDomain`).
    static let authorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"

    /// Sign in with Apple could not answer about a user (`getCredentialState` failed with
    /// `domain` and `code`). `ASAuthorizationError.unknown` (1000) and `.notHandled` (1003)
    /// mean the app lacks the Sign in with Apple capability or the device has no Apple Account:
    /// asking again on the next activation cannot help, so they are not retryable. Anything
    /// else may pass.
    public static func appleCredentialStateFailure(domain: String, code: Int) -> AuthError {
        let cannotPass = domain == authorizationErrorDomain && (code == 1000 || code == 1003)
        return AuthError(
            code: .providerUnavailable,
            message: "Sign in with Apple could not say whether the Apple ID still authorizes the app.",
            recoverySuggestion: cannotPass
                ? "Check that the app has the Sign in with Apple capability and that the device is signed in to an "
                    + "Apple Account."
                : "The check runs again when the app becomes active.",
            isRetryable: !cannotPass,
            underlying: "\(domain) \(code)"
        )
    }
}
