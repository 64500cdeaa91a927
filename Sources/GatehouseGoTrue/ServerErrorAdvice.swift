import Gatehouse

/// What a person can do about a server error, by code.
enum ServerErrorAdvice {
    static func suggestion(for code: ErrorCode, status: Int) -> String {
        switch code {
        case .invalidCredentials: return "Check the e-mail address and password, or reset the password."
        case .emailNotConfirmed: return "Enter the code sent to your e-mail address, or ask for a new one."
        case .userAlreadyExists, .emailExists: return "Sign in instead, or reset the password."
        case .weakPassword: return "Choose a longer password that is not a common one."
        case .otpExpired: return "Check the code, or request a new one."
        case .overRequestRateLimit, .overEmailSendRateLimit: return "Wait a moment before trying again."
        case .sessionNotFound, .sessionExpired, .refreshTokenNotFound, .refreshTokenAlreadyUsed: return "Sign in again."
        case .userNotFound: return "The account no longer exists. Sign up or sign in with another account."
        case .userBanned: return "The account is suspended. Contact the service's support."
        case .idTokenInvalid: return "Sign in with the provider again to get a fresh token."
        case .authorizationCodeInvalid: return "Sign in with Apple again: each authorization code works once."
        case .idTokenNonceInvalid: return "Start the sign-in again: every attempt needs a new nonce."
        case .providerUnavailable: return "The sign-in provider could not be reached. Try again in a minute."
        case .identityAlreadyExists: return "That account is linked to another user: sign in with it instead."
        case .singleIdentityNotDeletable: return "Link another sign-in method before removing this one."
        case .signupDisabled, .anonymousProviderDisabled, .providerDisabled:
            return "This server does not allow it; use another sign-in method."
        case .reauthenticationNeeded:
            return "Confirm it is you: ask for a code by e-mail, then try again with it (or sign in again)."
        case .reauthenticationNotValid: return "Check the code sent by e-mail, or ask for a new one."
        case .insufficientAAL: return "Enter a code from your authenticator app first, then try again."
        default:
            return status >= 500 ? "The server had a problem. Try again later." : "Check the input and try again."
        }
    }
}
