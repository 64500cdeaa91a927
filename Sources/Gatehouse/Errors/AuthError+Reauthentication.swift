extension AuthError {
    /// The server asks for proof before `action`: a sign-in within the last 10 minutes, or the
    /// code ``AuthService/reauthenticate()`` e-mails (``ErrorCode/reauthenticationNeeded``,
    /// `Recovery.reauthenticate`).
    ///
    /// - Parameters:
    ///   - action: The sensitive action the server refused.
    ///   - email: Where the code goes (the account's confirmed address); `nil` when the
    ///     account has none, so that only a new sign-in proves it.
    public static func reauthenticationNeeded(for action: SensitiveAction, email: String?) -> AuthError {
        guard let email, !email.isEmpty else {
            return AuthError(
                code: .reauthenticationNeeded,
                message: "To \(action.purpose), confirm it is you: sign in again.",
                recoverySuggestion: "Sign in again, then try within 10 minutes.",
                httpStatus: 400
            )
        }
        return AuthError(
            code: .reauthenticationNeeded,
            message: "To \(action.purpose), confirm it is you with a code we e-mail to \(email).",
            recoverySuggestion: "Ask for the code, enter it and try again; or sign in again and try within 10 minutes.",
            httpStatus: 400
        )
    }

    /// The reauthentication code is wrong, used, or expired (``ErrorCode/reauthenticationNotValid``).
    ///
    /// - Parameter email: Where the code went, if known.
    public static func reauthenticationNotValid(email: String?) -> AuthError {
        AuthError(
            code: .reauthenticationNotValid,
            message: "The code is wrong or has expired.",
            recoverySuggestion: "Enter the code we sent to \(Self.address(email)), or ask for a new one.",
            httpStatus: 422
        )
    }

    /// A user with an authenticator app must verify one of its codes in this session before
    /// `action` (``ErrorCode/insufficientAAL``, `Recovery.verifySecondFactor`).
    public static func secondFactorNeeded(for action: SensitiveAction) -> AuthError {
        AuthError(
            code: .insufficientAAL,
            message: "To \(action.purpose), first enter a code from your authenticator app.",
            recoverySuggestion: "Verify a code from your authenticator app, then try again.",
            httpStatus: 401
        )
    }

    /// A sign-out of every session ended this device's, but the server kept the other devices
    /// signed in: `refusal` (a reauthentication code or a second factor was wanted) can no longer
    /// be answered from a signed-out device (``ErrorCode/otherSessionsNotEnded``).
    public static func otherSessionsNotEnded(because refusal: AuthError) -> AuthError {
        AuthError(
            code: .otherSessionsNotEnded,
            message: "You are signed out here, but your other devices are still signed in.",
            recoverySuggestion: "To sign them out, sign in again and sign out your other devices within 10 minutes.",
            httpStatus: refusal.httpStatus,
            underlying: "\(refusal.code.rawValue): \(refusal.underlying ?? refusal.message)"
        )
    }

    /// This error in the words of a person who was doing `action`, when it is one of the
    /// answers about proof (``ErrorCode/reauthenticationNeeded``,
    /// ``ErrorCode/reauthenticationNotValid``, ``ErrorCode/insufficientAAL``); any other error
    /// unchanged. The server's status and `Retry-After` are kept, and its own message goes to
    /// ``underlying``.
    public func explained(for action: SensitiveAction, email: String?) -> AuthError {
        var explained: AuthError
        switch code {
        case .reauthenticationNeeded: explained = .reauthenticationNeeded(for: action, email: email)
        case .reauthenticationNotValid: explained = .reauthenticationNotValid(email: email)
        case .insufficientAAL: explained = .secondFactorNeeded(for: action)
        default: return self
        }
        explained.httpStatus = httpStatus
        explained.retryAfter = retryAfter
        explained.isRetryable = isRetryable
        explained.underlying = underlying ?? message
        return explained
    }

    private static func address(_ email: String?) -> String {
        guard let email, !email.isEmpty else { return "your e-mail address" }
        return email
    }
}
