/// A change to the session, delivered on ``AuthService/authStateChanges``.
public enum AuthEvent: Sendable, Equatable {
    /// The session known at subscription or restore time (`nil`: nobody signed in).
    case initialSession(User?)
    /// A user signed in (or a guest became a permanent user).
    case signedIn(User)
    /// The user signed out, or the server ended the session.
    case signedOut
    /// The access token was refreshed; the user is unchanged.
    case tokenRefreshed(User)
    /// The user's profile changed (e-mail, metadata, guest upgrade).
    case userUpdated(User)
    /// The user deleted their account.
    case userDeleted
    /// The session could not be saved: it holds for this run, but a relaunch will not find it.
    case storageFailed(AuthError)
    /// The session store could not use its primary location and keeps the session in its
    /// fallback (for example a macOS app without a keychain entitlement); reported once.
    case storageFallback(AuthError)
}
