/// An action that changes how an account is entered or who is in it, for which a Gatehouse
/// server asks for proof (`docs/security.md`, "Sensitive actions"): a sign-in within the last
/// 10 minutes or a reauthentication code (``AuthService/reauthenticate()``), and a second factor
/// when the user has one.
///
/// The SDK names the action in the errors it reports
/// (``AuthError/reauthenticationNeeded(for:email:)``), so that a person reads what they were
/// doing ("To remove an authenticator app, …"). The raw values are the server's names.
public enum SensitiveAction: String, Sendable, Equatable, CaseIterable {
    /// Link an Apple or Google identity (``AuthService/linkIdentity(_:nonce:)``).
    case linkIdentity = "link_identity"
    /// Add a passkey (``AuthPasskeys/registrationRequest(nonce:)``).
    case registerPasskey = "register_passkey"
    /// Rename a passkey (``AuthPasskeys/rename(_:to:nonce:)``).
    case renamePasskey = "rename_passkey"
    /// Remove a passkey (``AuthPasskeys/remove(_:nonce:)``).
    case removePasskey = "remove_passkey"
    /// Add an authenticator app (``MultiFactorAuth/enrollTOTP(friendlyName:nonce:)``).
    case enrolFactor = "enrol_factor"
    /// Remove an authenticator app (``MultiFactorAuth/unenroll(factorID:nonce:)``).
    case unenrolFactor = "unenrol_factor"
    /// Set a new password (``AuthService/updateUser(_:)`` with a password).
    case changePassword = "change_password"
    /// Move the account to another address (``AuthService/updateUser(email:nonce:)``).
    case changeEmail = "change_email"
    /// End another device's session (``AuthService/endSession(id:nonce:)``).
    case endOtherSession = "end_other_session"
    /// Sign out every other device (``AuthService/endOtherSessions(nonce:)``,
    /// ``AuthService/signOut(scope:nonce:)`` with `.others` or `.global`).
    case endOtherSessions = "end_other_sessions"
    /// Delete the account (``AuthService/deleteAccount(nonce:)``).
    case deleteAccount = "delete_account"

    /// What the person was doing, as it completes "To … ": "remove an authenticator app".
    public var purpose: String {
        switch self {
        case .linkIdentity: "link another sign-in provider"
        case .registerPasskey: "add a passkey"
        case .renamePasskey: "rename a passkey"
        case .removePasskey: "remove a passkey"
        case .enrolFactor: "add an authenticator app"
        case .unenrolFactor: "remove an authenticator app"
        case .changePassword: "change your password"
        case .changeEmail: "change your e-mail address"
        case .endOtherSession: "sign out another device"
        case .endOtherSessions: "sign out your other devices"
        case .deleteAccount: "delete your account"
        }
    }
}
