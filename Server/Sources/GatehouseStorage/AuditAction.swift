/// What an audit-log line records: the server's vocabulary of actions, one constant each, and
/// the `action` column's text (kept exactly as written, GoTrue's names where GoTrue has one).
///
/// A struct over its text rather than an enum: every line the server writes names one of the
/// constants below (there is no string-literal conversion, and only the readers of stored lines
/// and of the console's filter make one from text, which a test checks), yet the log is history,
/// and a row written by an older version or by a newer instance during a rolling upgrade may
/// hold an action this build does not know. Such a row reads back as that text, unchanged, and
/// the console's audit page shows and filters it like any other; an enum would need a catch-all
/// case, and so two spellings of one action. ``known`` lists the vocabulary; `docs/operating.md`
/// ("The audit log") lists the same, in the same order (a test compares them).
public struct AuditAction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The text stored in the `action` column.
    public let rawValue: String

    /// The action stored as `rawValue`: one of ``known``, or one this build does not write.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Whether this build writes the action.
    public var isKnown: Bool { Self.known.contains(self) }

    // MARK: Sign-up and sign-in

    /// A sign-in succeeded (password, ID token, provider callback, PKCE exchange or passkey); the
    /// detail says which way when it is not a password.
    public static let login = AuditAction(rawValue: "login")
    /// A password sign-in was refused (wrong password, or an address not registered).
    public static let loginFailed = AuditAction(rawValue: "login_failed")
    /// A sign-up created a user.
    public static let userSignedUp = AuditAction(rawValue: "user_signedup")
    /// A sign-up named an address already registered (answered as a new sign-up would be).
    public static let userRepeatedSignUp = AuditAction(rawValue: "user_repeated_signup")
    /// An anonymous sign-in created a guest user.
    public static let anonymousSignIn = AuditAction(rawValue: "anonymous_signin")
    /// A guest became a permanent user by registering a passkey.
    public static let guestUpgraded = AuditAction(rawValue: "guest_upgraded")
    /// An e-mailed code or link was verified; the detail is its purpose.
    public static let verified = AuditAction(rawValue: "verified")
    /// A refresh token was exchanged for a new pair.
    public static let tokenRefreshed = AuditAction(rawValue: "token_refreshed")
    /// A refresh token was reused past the reuse interval: its session was ended.
    public static let tokenRevoked = AuditAction(rawValue: "token_revoked")
    /// A user signed out; the detail is the scope (`local`, `global`, `others`).
    public static let logout = AuditAction(rawValue: "logout")

    // MARK: The account

    /// A user changed their own account (`PUT /user`).
    public static let userModified = AuditAction(rawValue: "user_modified")
    /// One side of a two-sided address change was confirmed; the other still waits.
    public static let emailChangeSideConfirmed = AuditAction(rawValue: "email_change_side_confirmed")
    /// An address change completed.
    public static let userEmailChanged = AuditAction(rawValue: "user_email_changed")
    /// A password set before the address was proven was dropped when someone else proved the
    /// address (and the user's sessions ended).
    public static let unprovenPasswordDropped = AuditAction(rawValue: "unproven_password_dropped")
    /// A user was deleted: by the user (detail `self-service`) or by Apple's account-delete
    /// notification (detail `apple account-delete`).
    public static let userDeleted = AuditAction(rawValue: "user_deleted")
    /// A user unlinked one of their identities; the detail is its provider.
    public static let identityUnlinked = AuditAction(rawValue: "identity_unlinked")
    /// A session ended by `DELETE /user/sessions/{id}` (detail `own` or `other`), the admin API
    /// (detail `admin`) or the console (detail `console`).
    public static let sessionEnded = AuditAction(rawValue: "session_ended")

    // MARK: Second factors and passkeys

    /// A TOTP factor was enrolled (not verified yet).
    public static let factorEnrolled = AuditAction(rawValue: "factor_enrolled")
    /// A factor's challenge was created.
    public static let factorChallenged = AuditAction(rawValue: "factor_challenged")
    /// A factor's code was verified: the session reached AAL2.
    public static let factorVerified = AuditAction(rawValue: "factor_verified")
    /// A user removed one of their factors.
    public static let factorUnenrolled = AuditAction(rawValue: "factor_unenrolled")
    /// An admin (or an operator in the console) removed a user's factor.
    public static let factorDeletedByAdmin = AuditAction(rawValue: "factor_deleted_by_admin")
    /// A passkey was registered.
    public static let passkeyCreated = AuditAction(rawValue: "passkey_created")
    /// A passkey was renamed.
    public static let passkeyUpdated = AuditAction(rawValue: "passkey_updated")
    /// A passkey was removed, by its user or by an admin.
    public static let passkeyDeleted = AuditAction(rawValue: "passkey_deleted")
    /// A passkey sign-in was refused because its signature counter did not grow (a cloned
    /// authenticator, perhaps).
    public static let passkeySignCountRegressed = AuditAction(rawValue: "passkey_sign_count_regressed")

    // MARK: The admin API

    /// `POST /admin/users` created a user.
    public static let adminUserCreated = AuditAction(rawValue: "admin_user_created")
    /// `PUT /admin/users/{id}` (or a ban or unban in the console) changed a user.
    public static let adminUserModified = AuditAction(rawValue: "admin_user_modified")
    /// `DELETE /admin/users/{id}` (or the console) deleted a user.
    public static let adminUserDeleted = AuditAction(rawValue: "admin_user_deleted")
    /// `POST /admin/generate_link` made a link; the detail is its type.
    public static let adminGenerateLink = AuditAction(rawValue: "admin_generate_link")
    /// `POST /invite` invited a user.
    public static let userInvited = AuditAction(rawValue: "user_invited")
    /// A `service_role` token was revoked (`gatehouse-server admin-token --revoke`).
    public static let adminTokenRevoked = AuditAction(rawValue: "admin_token_revoked")
    /// A signing key was added that signs from the next start (`gatehouse-server keys`, console).
    public static let signingKeyRotated = AuditAction(rawValue: "signing_key_rotated")
    /// A signing key that no longer signs was retired.
    public static let signingKeyRetired = AuditAction(rawValue: "signing_key_retired")

    // MARK: Sign in with Apple

    /// One of Apple's server-to-server notifications was applied; the detail is its kind.
    public static let appleNotification = AuditAction(rawValue: "apple_notification")
    /// Apple revoked a deleted user's or unlinked identity's token.
    public static let appleTokenRevoked = AuditAction(rawValue: "apple_token_revoked")
    /// A revocation at Apple failed and will be tried again.
    public static let appleTokenRevocationFailed = AuditAction(rawValue: "apple_token_revocation_failed")
    /// A revocation at Apple kept failing and was given up.
    public static let appleTokenRevocationAbandoned = AuditAction(rawValue: "apple_token_revocation_abandoned")

    // MARK: Mail

    /// A mail was given up at once: the mail server refused it for good, or it cannot be opened
    /// with this server secret.
    public static let mailRejected = AuditAction(rawValue: "mail_rejected")
    /// A mail was given up after failing for the whole retry window.
    public static let mailAbandoned = AuditAction(rawValue: "mail_abandoned")

    // MARK: The console and the operator role

    /// `gatehouse-server operator grant` gave a user the operator role.
    public static let operatorGranted = AuditAction(rawValue: "operator_granted")
    /// `gatehouse-server operator revoke` took it away: the operator's console sessions end.
    public static let operatorRevoked = AuditAction(rawValue: "operator_revoked")
    /// An operator signed in to the console (password and TOTP).
    public static let consoleSignedIn = AuditAction(rawValue: "console_signed_in")
    /// An operator signed out of the console.
    public static let consoleSignedOut = AuditAction(rawValue: "console_signed_out")
    /// A console sign-in was refused after the password (not an operator, no factor, wrong code).
    public static let consoleSignInRefused = AuditAction(rawValue: "console_sign_in_refused")
    /// An operator ended all of a user's sessions.
    public static let sessionsEnded = AuditAction(rawValue: "sessions_ended")
    /// An operator sent a user a recovery code (the mail `/recover` sends).
    public static let recoverySent = AuditAction(rawValue: "recovery_sent")
    /// An operator resent a user's sign-up confirmation (the mail `/resend` sends).
    public static let confirmationResent = AuditAction(rawValue: "confirmation_resent")
    /// The console refused an operator's deletion of a user: the typed confirmation did not
    /// name the user (nothing deleted; the detail is what was typed, cut to 64 characters).
    public static let consoleDeletionRefused = AuditAction(rawValue: "console_deletion_refused")

    /// Every action this build writes, in the order above.
    public static let known: [AuditAction] = [
        .login, .loginFailed, .userSignedUp, .userRepeatedSignUp, .anonymousSignIn, .guestUpgraded, .verified,
        .tokenRefreshed, .tokenRevoked, .logout,
        .userModified, .emailChangeSideConfirmed, .userEmailChanged, .unprovenPasswordDropped, .userDeleted,
        .identityUnlinked, .sessionEnded,
        .factorEnrolled, .factorChallenged, .factorVerified, .factorUnenrolled, .factorDeletedByAdmin,
        .passkeyCreated, .passkeyUpdated, .passkeyDeleted, .passkeySignCountRegressed,
        .adminUserCreated, .adminUserModified, .adminUserDeleted, .adminGenerateLink, .userInvited,
        .adminTokenRevoked, .signingKeyRotated, .signingKeyRetired,
        .appleNotification, .appleTokenRevoked, .appleTokenRevocationFailed, .appleTokenRevocationAbandoned,
        .mailRejected, .mailAbandoned,
        .operatorGranted, .operatorRevoked, .consoleSignedIn, .consoleSignedOut, .consoleSignInRefused,
        .sessionsEnded, .recoverySent, .confirmationResent, .consoleDeletionRefused,
    ]
}
