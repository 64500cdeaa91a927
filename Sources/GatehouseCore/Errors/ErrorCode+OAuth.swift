// MARK: - Sign-in through a provider's web page, and PKCE (GoTrue's codes)

extension ErrorCode {
    /// `POST /token?grant_type=pkce`: no flow has this `auth_code` (wrong, or exchanged already).
    public static let flowStateNotFound: ErrorCode = "flow_state_not_found"
    /// The sign-in flow (or its `auth_code`) outlived its 10 minutes: start the sign-in again.
    public static let flowStateExpired: ErrorCode = "flow_state_expired"
    /// The `code_verifier` does not match the `code_challenge` the flow was started with.
    public static let badCodeVerifier: ErrorCode = "bad_code_verifier"
    /// `/callback`: the `state` is missing, unknown, used already, or the flow it names has expired.
    public static let badOAuthState: ErrorCode = "bad_oauth_state"
    /// `/callback`: the provider's answer is malformed (no `code`), comes from another issuer than
    /// the flow's provider (RFC 9207 `iss`), or its code or user could not be used.
    public static let badOAuthCallback: ErrorCode = "bad_oauth_callback"
    /// `/authorize`: the provider is not configured on this server.
    public static let oauthProviderNotSupported: ErrorCode = "oauth_provider_not_supported"
    /// The person declined at the provider's page (RFC 6749 §4.1.2.1 `access_denied`): a
    /// redirect's `error` and `error_code`, not a failure of the server.
    public static let accessDenied: ErrorCode = "access_denied"
}
