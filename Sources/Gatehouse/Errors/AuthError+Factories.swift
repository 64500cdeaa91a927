import Foundation

extension AuthError {
    /// One address of a secure e-mail change is confirmed; the other address's code is needed.
    public static func emailChangeConfirmationPending() -> AuthError {
        AuthError(
            code: .emailChangeConfirmationPending,
            message: "Confirmation link accepted. Please proceed to confirm link sent to the other email.",
            recoverySuggestion: "Enter the code sent to the other address.",
            httpStatus: 200
        )
    }

    /// No user is signed in.
    public static func notSignedIn() -> AuthError {
        AuthError(
            code: .notSignedIn,
            message: "You are not signed in.",
            recoverySuggestion: "Sign in and try again."
        )
    }

    /// The server could not be reached.
    public static func networkUnavailable(underlying: String? = nil) -> AuthError {
        AuthError(
            code: .networkUnavailable,
            message: "The server could not be reached.",
            recoverySuggestion: "Check your connection and try again.",
            isRetryable: true,
            underlying: underlying
        )
    }

    /// The server answered with something that is not what the protocol promises.
    public static func invalidResponse(status: Int? = nil, underlying: String? = nil) -> AuthError {
        AuthError(
            code: .invalidResponse,
            message: "The server sent a response that could not be understood.",
            recoverySuggestion: "Try again later; if it persists, check the server URL.",
            isRetryable: true,
            httpStatus: status,
            underlying: underlying
        )
    }

    /// The e-mail or password is wrong (never says which).
    public static func invalidCredentials() -> AuthError {
        AuthError(
            code: .invalidCredentials,
            message: "The e-mail address or password is incorrect.",
            recoverySuggestion: "Check them and try again, or reset your password.",
            httpStatus: 400
        )
    }

    /// A result arrived for a session that has since ended or been replaced.
    public static func sessionSuperseded() -> AuthError {
        AuthError(
            code: .sessionSuperseded,
            message: "The session changed while this operation was running.",
            recoverySuggestion: "Try again with the current session."
        )
    }

    /// The stored session could not be read or written.
    public static func storageFailure(_ underlying: String) -> AuthError {
        AuthError(
            code: .storageFailure,
            message: "The stored session could not be accessed.",
            recoverySuggestion: "Try again; if it persists, check the session store's permissions.",
            isRetryable: true,
            underlying: underlying
        )
    }

    /// The stored session file is unreadable; it was left in place.
    public static func storageCorrupt(location: String, underlying: String? = nil) -> AuthError {
        AuthError(
            code: .storageCorrupt,
            message: "The stored session at \(location) is unreadable.",
            recoverySuggestion:
                "Sign in again to replace it (the unreadable copy is kept beside it), or remove the file.",
            underlying: underlying
        )
    }

    /// The keychain item holding the session is unreadable (written by a newer release, or
    /// damaged); it was left in place until a sign-in replaces it.
    public static func storageCorrupt(keychainItem: String, underlying: String? = nil) -> AuthError {
        AuthError(
            code: .storageCorrupt,
            message: "The session saved in the keychain (\(keychainItem)) is unreadable.",
            recoverySuggestion: "Sign in again to replace it.",
            underlying: underlying
        )
    }

    /// The store is locked, for example before the device's first unlock.
    public static func storageLocked() -> AuthError {
        AuthError(
            code: .storageLocked,
            message: "Stored credentials are unavailable while the device is locked.",
            recoverySuggestion: "Retry after the device is unlocked.",
            isRetryable: true
        )
    }

    /// The keychain refused because the app is not signed with a keychain entitlement.
    public static func missingKeychainEntitlement() -> AuthError {
        missingKeychainEntitlement(accessGroup: nil)
    }

    /// The keychain refused because the app is not entitled to `accessGroup` (iOS, tvOS,
    /// watchOS, visionOS: a Keychain Sharing group missing from the app's or the extension's
    /// entitlements), or, without a group, to the keychain at all.
    public static func missingKeychainEntitlement(accessGroup: String?) -> AuthError {
        guard let accessGroup else {
            return AuthError(
                code: .missingEntitlement,
                message: "The app is not entitled to use the keychain (errSecMissingEntitlement).",
                recoverySuggestion:
                    "Sign the app with a provisioning profile that has the keychain-access-groups entitlement "
                    + "(Keychain Sharing); unit tests need a host app."
            )
        }
        return AuthError(
            code: .missingEntitlement,
            message: "The app is not entitled to the keychain access group \(accessGroup) (errSecMissingEntitlement).",
            recoverySuggestion:
                "Add the group to the Keychain Sharing capability (keychain-access-groups, with the team id "
                + "prefix) of the app and of every extension that shares the session."
        )
    }

    /// A stored session turned up while signing in before the session had been restored.
    public static func storedSessionRestored() -> AuthError {
        AuthError(
            code: .conflict,
            message: "A signed-in session was found on this device and has been restored.",
            recoverySuggestion: "Continue with the restored account, or sign out before signing in again.",
            isRetryable: false
        )
    }

    /// The backend does not offer this operation.
    public static func notSupported(_ operation: String) -> AuthError {
        AuthError(
            code: .notSupported,
            message: "This server does not support \(operation).",
            recoverySuggestion: "Use another sign-in method."
        )
    }

    /// The request is invalid (empty e-mail, malformed input).
    public static func validationFailed(_ message: String) -> AuthError {
        AuthError(code: .validationFailed, message: message, recoverySuggestion: "Correct the input and try again.")
    }

    /// Wraps any error as an `AuthError`, keeping one that already is.
    public static func wrapping(_ error: any Error) -> AuthError {
        if let error = error as? AuthError { return error }
        if error is CancellationError {
            return AuthError(code: .cancelled, message: "The operation was cancelled.", isRetryable: true)
        }
        return AuthError(
            code: .unexpectedFailure,
            message: "Something went wrong.",
            recoverySuggestion: "Try again.",
            isRetryable: true,
            underlying: String(describing: error)
        )
    }

    /// An ``AuthSession`` value's operations were used after its ``AuthService`` was released,
    /// or on a value made by hand.
    public static func disconnectedSession() -> AuthError {
        AuthError(
            code: .notSupported,
            message: "This session is not connected to an AuthService, so it cannot start an operation.",
            recoverySuggestion: "Read the session from the app's AuthService (or its @Shared key) and try again."
        )
    }
}
