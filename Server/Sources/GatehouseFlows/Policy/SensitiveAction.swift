import GatehouseStorage

/// An action that changes how an account is entered or who is in it (`security.md` §4b, SA-1).
///
/// Each is one entry of ``SensitiveActionPolicy`` (what the caller must prove, the notice that
/// follows, the budget it spends) and is authorized by ``SensitiveActionGuard`` alone; the
/// routes that perform them are listed in ``SensitiveRoutes``. The raw value names the action
/// in answers, the audit log and `docs/security.md`.
enum SensitiveAction: String, CaseIterable, Sendable {
    /// Link a provider identity to the signed-in account (`POST /token?grant_type=id_token` with
    /// `link_identity`, or `GET /user/identities/authorize` and the provider's callback).
    case linkIdentity = "link_identity"
    /// Register a passkey (`POST /passkeys/registration/options` and `/verify`).
    case registerPasskey = "register_passkey"
    /// Rename a passkey (`PATCH /passkeys/{id}`).
    case renamePasskey = "rename_passkey"
    /// Remove a passkey (`DELETE /passkeys/{id}`).
    case removePasskey = "remove_passkey"
    /// Enrol an authenticator app (`POST /factors`).
    case enrolFactor = "enrol_factor"
    /// Verify the first code of a factor not verified yet (`POST /factors/{id}/verify`), which
    /// makes it a way in.
    case verifyNewFactor = "verify_new_factor"
    /// Remove a factor (`DELETE /factors/{id}`).
    case unenrolFactor = "unenrol_factor"
    /// Unlink a provider identity (`DELETE /user/identities/{id}`).
    case unlinkIdentity = "unlink_identity"
    /// Set a new password (`PUT /user` with `password`).
    case changePassword = "change_password"
    /// Move the account to another address (`PUT /user` with `email`).
    case changeEmail = "change_email"
    /// List the account's sessions, with their devices and addresses (`GET /user/sessions`).
    case listSessions = "list_sessions"
    /// End another of the account's sessions (`DELETE /user/sessions/{id}`).
    case endOtherSession = "end_other_session"
    /// End every other session (`POST /logout` with `scope=others` or `global`, the default).
    case endOtherSessions = "end_other_sessions"
    /// Delete the account (`DELETE /user`).
    case deleteAccount = "delete_account"
    /// Sign in to the console (`POST /console/sign-in` with password and code, or
    /// `POST /console/sign-in/passkey`): an operator's way to every account's admin flows.
    case consoleSignIn = "console_sign_in"

    /// The action as a person reads it in an answer ("to add a passkey").
    var purpose: String {
        switch self {
        case .linkIdentity: "link another sign-in provider"
        case .registerPasskey: "add a passkey"
        case .renamePasskey: "rename a passkey"
        case .removePasskey: "remove a passkey"
        case .enrolFactor: "enrol an authenticator app"
        case .verifyNewFactor: "verify a new authenticator app"
        case .unenrolFactor: "remove an authenticator app"
        case .unlinkIdentity: "unlink a sign-in provider"
        case .changePassword: "change the password"
        case .changeEmail: "change the e-mail address"
        case .listSessions: "list the account's sessions"
        case .endOtherSession: "end another session"
        case .endOtherSessions: "sign out the account's other sessions"
        case .deleteAccount: "delete the account"
        case .consoleSignIn: "sign in to the console"
        }
    }
}
