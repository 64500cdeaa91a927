import GatehouseStorage
/// The audit-log actions the console and the operator role add (the flows it calls write
/// their own, the same as through the admin API).
enum ConsoleAuditAction: String, Sendable, CaseIterable {
    /// `gatehouse-server operator grant`.
    case operatorGranted = "operator_granted"
    /// `gatehouse-server operator revoke`: the operator's console sessions end with it.
    case operatorRevoked = "operator_revoked"
    /// An operator signed in to the console (password and TOTP).
    case signedIn = "console_signed_in"
    /// An operator signed out of the console.
    case signedOut = "console_signed_out"
    /// A console sign-in refused after the password (not an operator, no factor, wrong code).
    case signInRefused = "console_sign_in_refused"
    /// An operator ended all of a user's sessions.
    case sessionsEnded = "sessions_ended"
    /// An operator sent a user a recovery code (the mail `/recover` sends).
    case recoverySent = "recovery_sent"
    /// An operator resent a user's sign-up confirmation (the mail `/resend` sends).
    case confirmationResent = "confirmation_resent"
}
