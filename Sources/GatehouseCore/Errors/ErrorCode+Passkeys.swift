// MARK: - Passkeys (GoTrue's WebAuthn codes)

extension ErrorCode {
    /// Passkeys are not enabled on this server.
    public static let passkeyDisabled: ErrorCode = "passkey_disabled"
    /// The account has the most passkeys it may have.
    public static let tooManyPasskeys: ErrorCode = "too_many_passkeys"
    /// No passkey has the credential the authenticator used (removed, or of another server).
    public static let webAuthnCredentialNotFound: ErrorCode = "webauthn_credential_not_found"
    /// The challenge is unknown or was used already: ask for new options.
    public static let webAuthnChallengeNotFound: ErrorCode = "webauthn_challenge_not_found"
    /// The challenge expired: ask for new options.
    public static let webAuthnChallengeExpired: ErrorCode = "webauthn_challenge_expired"
    /// The credential is malformed or failed a check (origin, RP id, signature, user verification…).
    public static let webAuthnVerificationFailed: ErrorCode = "webauthn_verification_failed"
    /// This credential is registered already.
    public static let webAuthnCredentialExists: ErrorCode = "webauthn_credential_exists"
}
