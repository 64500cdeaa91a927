extension AuthError {
    /// A system authorization (a passkey sheet, an AutoFill request) was cancelled: by the
    /// person, by the app, or because the task that waited for it was.
    public static func authorizationCancelled() -> AuthError {
        AuthError(code: .cancelled, message: "The request was cancelled.", isRetryable: true)
    }

    /// Another system authorization is running; the new one was refused.
    public static func authorizationInProgress() -> AuthError {
        AuthError(
            code: .authorizationInProgress,
            message: "A passkey request is already in progress.",
            recoverySuggestion: "Finish or cancel it first (its task's cancellation cancels it).",
            isRetryable: true
        )
    }

    /// A passkey request failed; `authorizationErrorCode` is the `ASAuthorizationError.Code`
    /// raw value when the system's error was one (`nil` otherwise).
    public static func passkeyAuthorizationFailure(authorizationErrorCode: Int?, underlying: String? = nil) -> AuthError {
        switch authorizationErrorCode {
        case 1001:  // canceled
            return .authorizationCancelled()
        case 1006:  // matchedExcludedCredential (iOS 18, macOS 15): excludedCredentials at work
            return AuthError(
                code: .webAuthnCredentialExists,
                message: "This device already has a passkey for this account.",
                recoverySuggestion: "Use the passkey you have, or remove it from the account first.",
                underlying: underlying
            )
        default:
            return AuthError(
                code: .unknown,
                message: "The passkey request failed.",
                recoverySuggestion: "Check the app's associated domain (webcredentials:<rp id>) and the domain's "
                    + "apple-app-site-association file.",
                underlying: underlying
            )
        }
    }

    /// The system returned a credential of another kind than the request asked for.
    public static func unexpectedPasskeyCredential() -> AuthError {
        AuthError(code: .invalidResponse, message: "The system returned a credential that is not a passkey.")
    }
}
