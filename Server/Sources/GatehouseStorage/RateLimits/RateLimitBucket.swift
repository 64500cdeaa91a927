/// What a rate limit counts: its text is the key prefix of the bucket's windows (``windowID(_:)``,
/// and the rows of PostgreSQL's `rate_limits` table), so a case is never renamed. Each bucket's
/// window and limit are the server's policy, one table (`RateLimitTable`).
package enum RateLimitBucket: String, Sendable, CaseIterable {
    case token, verify, otp, anonymous, failedPassword
    /// Sensitive actions per user and client network (``SensitiveActionGuard``).
    case sensitiveChanges
    /// Factor challenges and verifies per client network (a minute) and per user on a client
    /// network (an hour); wrong codes per user (an hour): ``MFABudget``.
    case mfa, mfaUser, mfaFailures
    /// Passkey ceremonies (registration and sign-in options and verifies) per client address.
    case passkey
    /// Sign-ins through a provider's page (`/authorize`, `/callback`) per client address.
    case oauth
    /// Mail requests for one address per hour, of every kind, from one client network and from
    /// every network together; mails per hour to confirmed and to unconfirmed addresses (the
    /// whole server's); sign-up mails per client network per hour: ``MailBudget``.
    case emailRecipientClient, emailRecipient, emailSent, emailSentUnconfirmed, signupEmail
    /// Send requests for an address no account has (spaced like a known one's).
    case unknownRecipient
    /// The shorter windows of failed passwords (a minute, ten minutes, an hour; the day is
    /// ``failedPassword``): the growing delays of ``PasswordSignIn``.
    case failedPasswordMinute, failedPasswordTenMinutes, failedPasswordHour
    /// The console's forms (bans, deletions, sessions ended, mails sent, keys rotated) per
    /// operator: a stolen console cookie acts at a bounded pace, and no operator's pace is
    /// spent by another.
    case consoleActions

    /// The prefix of the bucket's window ids: its text.
    package var keyPrefix: String { rawValue }

    /// The separator between the prefix and the key in a window id.
    package static let separator = "|"

    /// The id of `key`'s window in this bucket where windows are stored by id (PostgreSQL's
    /// `rate_limits` table, and this process's tally of its batched windows).
    package func windowID(_ key: String) -> String { keyPrefix + Self.separator + key }
}
