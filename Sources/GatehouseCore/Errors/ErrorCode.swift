/// A stable, machine-readable error code shared by the Gatehouse server and SDK.
///
/// Codes are the spellings GoTrue (Supabase Auth) uses on the wire, plus a few client-side codes
/// for failures that never reach a server. The type is open: a code that a newer server sends
/// still decodes, so clients never break on an unknown value.
///
/// ```swift
/// if error.code == .sessionNotFound { /* sign the user out */ }
/// ```
///
/// A shipped code is API: never rename one.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire spelling, for example `invalid_credentials`.
    public let rawValue: String

    /// Creates a code from its wire spelling.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a code from its wire spelling.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

// MARK: - Server codes (GoTrue `apierrors/errorcode.go`)

extension ErrorCode {
    /// Unknown user, wrong password, or no password set.
    public static let invalidCredentials: ErrorCode = "invalid_credentials"
    /// The password matched but the e-mail address is not confirmed yet.
    public static let emailNotConfirmed: ErrorCode = "email_not_confirmed"
    /// The phone number is not confirmed yet.
    public static let phoneNotConfirmed: ErrorCode = "phone_not_confirmed"
    /// The user is banned.
    public static let userBanned: ErrorCode = "user_banned"
    /// Too many requests from this address or for this account.
    public static let overRequestRateLimit: ErrorCode = "over_request_rate_limit"
    /// Too many e-mails sent, or sent too soon after the previous one.
    public static let overEmailSendRateLimit: ErrorCode = "over_email_send_rate_limit"
    /// Too many text messages sent.
    public static let overSMSSendRateLimit: ErrorCode = "over_sms_send_rate_limit"
    /// The refresh token does not exist (or its session is gone).
    public static let refreshTokenNotFound: ErrorCode = "refresh_token_not_found"
    /// The refresh token was already used outside the reuse interval; its session is revoked.
    public static let refreshTokenAlreadyUsed: ErrorCode = "refresh_token_already_used"
    /// The session no longer exists (signed out, revoked or deleted).
    public static let sessionNotFound: ErrorCode = "session_not_found"
    /// The session passed its inactivity or absolute lifetime.
    public static let sessionExpired: ErrorCode = "session_expired"
    /// A concurrent change holds the row; retry.
    public static let conflict: ErrorCode = "conflict"
    /// A confirmed user with this e-mail exists (sign-up with autoconfirm on).
    public static let userAlreadyExists: ErrorCode = "user_already_exists"
    /// The e-mail address belongs to another user.
    public static let emailExists: ErrorCode = "email_exists"
    /// The phone number belongs to another user.
    public static let phoneExists: ErrorCode = "phone_exists"
    /// The password is too short, too long, or too common.
    public static let weakPassword: ErrorCode = "weak_password"
    /// The new password equals the current one.
    public static let samePassword: ErrorCode = "same_password"
    /// The request is malformed or a field is invalid.
    public static let validationFailed: ErrorCode = "validation_failed"
    /// The request body is not valid JSON.
    public static let badJSON: ErrorCode = "bad_json"
    /// The bearer token is malformed, forged or expired.
    public static let badJWT: ErrorCode = "bad_jwt"
    /// The route needs a bearer token and none was sent.
    public static let noAuthorization: ErrorCode = "no_authorization"
    /// The route needs an admin (`service_role`) token.
    public static let notAdmin: ErrorCode = "not_admin"
    /// The user does not exist (deleted).
    public static let userNotFound: ErrorCode = "user_not_found"
    /// The one-time code or link is wrong, used or expired.
    public static let otpExpired: ErrorCode = "otp_expired"
    /// Codes for unknown addresses are disabled (`create_user: false`).
    public static let otpDisabled: ErrorCode = "otp_disabled"
    /// Sign-ups are disabled on this server.
    public static let signupDisabled: ErrorCode = "signup_disabled"
    /// Anonymous sign-ins are disabled on this server.
    public static let anonymousProviderDisabled: ErrorCode = "anonymous_provider_disabled"
    /// E-mail sign-in is disabled on this server.
    public static let emailProviderDisabled: ErrorCode = "email_provider_disabled"
    /// A sensitive action (a new or removed way in, a password or address change, ending other
    /// sessions, deletion) needs a reauthentication code from `GET /reauthenticate` as `nonce`:
    /// the session's sign-in is more than 10 minutes old.
    public static let reauthenticationNeeded: ErrorCode = "reauthentication_needed"
    /// The reauthentication code is wrong, used, expired or out of tries.
    public static let reauthenticationNotValid: ErrorCode = "reauthentication_not_valid"
    /// The password change needs the current password.
    public static let currentPasswordRequired: ErrorCode = "current_password_required"
    /// The current password given is wrong.
    public static let currentPasswordInvalid: ErrorCode = "current_password_invalid"
    /// The session's assurance level is too low for this change.
    public static let insufficientAAL: ErrorCode = "insufficient_aal"
    /// No factor (or challenge) with this id belongs to the user.
    public static let mfaFactorNotFound: ErrorCode = "mfa_factor_not_found"
    /// The challenge is older than its 300 s, or its wrong codes are spent: create a new one.
    public static let mfaChallengeExpired: ErrorCode = "mfa_challenge_expired"
    /// The challenge was created from another address than the verify comes from.
    public static let mfaIPAddressMismatch: ErrorCode = "mfa_ip_address_mismatch"
    /// The code is wrong, or was accepted once already (a replay).
    public static let mfaVerificationFailed: ErrorCode = "mfa_verification_failed"
    /// The user has a factor with this friendly name already.
    public static let mfaFactorNameConflict: ErrorCode = "mfa_factor_name_conflict"
    /// The user has the most factors allowed (10).
    public static let tooManyEnrolledMFAFactors: ErrorCode = "too_many_enrolled_mfa_factors"
    /// The provider identity is already linked to another user.
    public static let identityAlreadyExists: ErrorCode = "identity_already_exists"
    /// The identity does not exist.
    public static let identityNotFound: ErrorCode = "identity_not_found"
    /// The last identity of a user cannot be unlinked.
    public static let singleIdentityNotDeletable: ErrorCode = "single_identity_not_deletable"
    /// The token's audience is not accepted here.
    public static let unexpectedAudience: ErrorCode = "unexpected_audience"
    /// The provider is not enabled or not known.
    public static let providerDisabled: ErrorCode = "provider_disabled"
    /// The server timed out.
    public static let requestTimeout: ErrorCode = "request_timeout"
    /// The request body is larger than the server accepts.
    public static let requestEntityTooLarge: ErrorCode = "request_entity_too_large"
    /// The server failed unexpectedly.
    public static let unexpectedFailure: ErrorCode = "unexpected_failure"
    /// An HTTP error without a more specific code.
    public static let unknown: ErrorCode = "unknown"
}

// MARK: - Gatehouse server codes for routing failures

extension ErrorCode {
    /// No route matches the request's path.
    public static let notFound: ErrorCode = "not_found"
    /// A route matches the path but not the request's method.
    public static let methodNotAllowed: ErrorCode = "method_not_allowed"
}

// MARK: - Client codes (never sent by a server)

extension ErrorCode {
    /// The server could not be reached (offline, DNS, refused, timed out).
    public static let networkUnavailable: ErrorCode = "network_unavailable"
    /// The server answered with something that is not the expected JSON.
    public static let invalidResponse: ErrorCode = "invalid_response"
    /// An operation needs a signed-in user and there is none.
    public static let notSignedIn: ErrorCode = "not_signed_in"
    /// The session store could not be read or written.
    public static let storageFailure: ErrorCode = "storage_failure"
    /// The stored session is unreadable (corrupt file or item); it was left in place.
    public static let storageCorrupt: ErrorCode = "storage_corrupt"
    /// The store is locked (device locked before first unlock); retry later.
    public static let storageLocked: ErrorCode = "storage_locked"
    /// The app lacks the keychain entitlement it needs.
    public static let missingEntitlement: ErrorCode = "missing_entitlement"
    /// A result arrived for a session that has since ended or been replaced; it was dropped.
    public static let sessionSuperseded: ErrorCode = "session_superseded"
    /// The operation was cancelled.
    public static let cancelled: ErrorCode = "cancelled"
    /// The backend does not support this operation.
    public static let notSupported: ErrorCode = "not_supported"
    /// One address of a secure e-mail change is confirmed; the code sent to the other address
    /// is still needed (the server answered `{"msg": "Confirmation link accepted…", "code": "200"}`).
    public static let emailChangeConfirmationPending: ErrorCode = "email_change_confirmation_pending"
    /// Sign in with Apple said the signed-in user's Apple ID no longer authorizes the app on
    /// this device (revoked, or not found); the SDK ended the session here.
    public static let appleCredentialRevoked: ErrorCode = "apple_credential_revoked"
    /// The server URL is cleartext `http://` to a host that is not this device (loopback), and
    /// the app did not allow it: tokens and passwords would cross the network unencrypted.
    public static let insecureConnection: ErrorCode = "insecure_connection"
}

// MARK: - Gatehouse server codes (not in GoTrue)

extension ErrorCode {
    /// An Apple or Google ID token failed verification (signature, issuer, audience, time).
    public static let idTokenInvalid: ErrorCode = "id_token_invalid"
    /// The ID token's nonce is missing, does not match the one sent, or was used before.
    public static let idTokenNonceInvalid: ErrorCode = "id_token_nonce_invalid"
    /// The identity provider's keys could not be fetched; retry shortly.
    public static let providerUnavailable: ErrorCode = "provider_unavailable"
    /// The server's database cannot serve right now (unreachable, restarting, its disk full);
    /// nothing was changed; retry shortly.
    public static let databaseUnavailable: ErrorCode = "database_unavailable"
    /// Apple refused the authorization code sent beside an Apple ID token (used, expired or for
    /// another app), or the code belongs to another Apple account than the token.
    public static let authorizationCodeInvalid: ErrorCode = "authorization_code_invalid"
    /// A server-to-server notification from Apple was not signed by Apple, is for another app,
    /// or is too old (`POST /apple/notifications`).
    public static let notificationInvalid: ErrorCode = "notification_invalid"
    /// The authenticator app's enrolment link (the issuer and the account's address) is too long
    /// for the largest QR code the server draws (`POST /factors`): a shorter issuer fits. It
    /// depends on the account's address, so a request the API document calls valid can get it.
    public static let mfaEnrollmentLinkTooLong: ErrorCode = "mfa_enrollment_link_too_long"
}
