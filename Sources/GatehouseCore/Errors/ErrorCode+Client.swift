// MARK: - Client codes of issue 30 (never sent by a server)

extension ErrorCode {
    /// The app's transport security refused the connection: a plain `http://` URL that App
    /// Transport Security blocks (`URLError.appTransportSecurityRequiresSecureConnection`).
    public static let insecureConnectionBlocked: ErrorCode = "insecure_connection_blocked"
    /// The TLS connection failed: a certificate the device does not trust, expired or not yet
    /// valid, or a handshake that failed (a proxy or captive portal in the way).
    public static let secureConnectionFailed: ErrorCode = "secure_connection_failed"
    /// A system authorization (a passkey sheet, Sign in with Apple) is already in progress; the
    /// new one was refused rather than leaving the first one waiting forever.
    public static let authorizationInProgress: ErrorCode = "authorization_in_progress"
}

// MARK: - Client codes of reauthentication (never sent by a server)

extension ErrorCode {
    /// A sign-out of every session (`global`) ended this device's session, but the server kept
    /// the others: it wanted proof of a recent sign-in (a reauthentication code) or a second
    /// factor, which a device that has just signed out can no longer give.
    public static let otherSessionsNotEnded: ErrorCode = "other_sessions_not_ended"
}
