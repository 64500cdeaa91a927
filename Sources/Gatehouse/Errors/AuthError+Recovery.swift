extension AuthError {
    /// What an app should do about an error (the design's error table).
    public enum Recovery: Sendable, Equatable {
        /// Nobody is signed in, or the session ended: show sign-in.
        case signIn
        /// The attempt failed (wrong password, bad code): show the error and let the person retry.
        case retry
        /// The account no longer exists: clear what the app keeps for it and show sign-in.
        case clearLocalData
        /// The server could not be reached: show an offline indicator and retry later.
        case offline
        /// Wait before retrying (rate limit or locked storage).
        case waitAndRetry
        /// The server wants proof of a recent sign-in: ask for the e-mailed code
        /// (``AuthService/reauthenticate()``), then try again with it as `nonce`
        /// (``AuthService/withReauthentication(_:asking:perform:)`` does both).
        case reauthenticate
        /// The account has an authenticator app and this session has not verified one of its
        /// codes: verify one (``MultiFactorAuth/challengeAndVerify(factorID:code:)``), then try again.
        case verifySecondFactor

        init(code: ErrorCode, isRetryable: Bool) {
            switch code {
            case .userNotFound:
                self = .clearLocalData
            case .notSignedIn, .sessionNotFound, .sessionExpired, .refreshTokenNotFound,
                .refreshTokenAlreadyUsed, .userBanned, .sessionSuperseded, .appleCredentialRevoked:
                self = .signIn
            case .networkUnavailable, .requestTimeout:
                self = .offline
            case .overRequestRateLimit, .overEmailSendRateLimit, .overSMSSendRateLimit, .storageLocked, .conflict:
                self = .waitAndRetry
            case .reauthenticationNeeded:
                self = .reauthenticate
            case .insufficientAAL:
                self = .verifySecondFactor
            default:
                self = isRetryable ? .waitAndRetry : .retry
            }
        }
    }
}
