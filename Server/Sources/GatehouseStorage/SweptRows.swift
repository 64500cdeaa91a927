
/// The kinds of rows that serve their purpose and then only take space, which the background
/// sweep (``StorageSweep``) deletes in bounded batches, off the request path.
///
/// Every kind is refused by the flows once it has expired, so the sweep's timing never decides
/// whether a code, a challenge or a session works; it only keeps the tables from growing.
public enum SweptRows: String, CaseIterable, Sendable {
    /// Sessions ended by lifetime or inactivity (``SessionLifetime``).
    case endedSessions = "ended sessions"
    /// E-mailed codes past their expiry, except a sign-up code that an unconfirmed password
    /// is bound to (a resend carries the binding over to the new code).
    case expiredCodes = "expired codes"
    /// ID-token nonces past their token's expiry (a replay could not pass the expiry check).
    case usedNonces = "used nonces"
    /// MFA challenges past their expiry.
    case expiredFactorChallenges = "expired MFA challenges"
    /// Passkey ceremony challenges past their expiry.
    case expiredPasskeyChallenges = "expired passkey challenges"
    /// Sign-in flows (`/authorize`, PKCE e-mail links) and their unexchanged codes past their expiry.
    case expiredFlowStates = "expired sign-in flows"
    /// Rate-limit windows that closed (PostgreSQL keeps them in `rate_limits`).
    case closedRateLimitWindows = "closed rate-limit windows"
    /// Audit entries older than the retention (`GATEHOUSE_AUDIT_RETENTION_DAYS`).
    case oldAuditEntries = "old audit entries"
}
