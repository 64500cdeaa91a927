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
