import Foundation
import GatehouseStorage

/// Every rate-limit bucket's window and limit, in one table: a flow names a bucket
/// (``window(_:)``), never a number. The lengths are fixed here; the limits come from
/// ``RateLimitSettings`` (`GATEHOUSE_RATE_LIMIT_*`), except the shorter failed-password tiers
/// (5 a minute, 10 per ten minutes, 20 an hour) and the spacing of requests for an address no
/// account has (one per `GATEHOUSE_SMTP_MAX_FREQUENCY`).
struct RateLimitTable: Sendable {
    /// The configured limits.
    let limits: RateLimitSettings
    /// Seconds between two codes of one purpose to one address (`GATEHOUSE_SMTP_MAX_FREQUENCY`):
    /// the window of ``RateLimitBucket/unknownRecipient``.
    let codeSpacing: TimeInterval

    /// The table of `configuration`'s limits and code spacing.
    init(_ configuration: ServerConfiguration) {
        self.init(limits: configuration.rateLimits, codeSpacing: TimeInterval(configuration.smtpMaxFrequency))
    }

    /// The table of `limits`, with requests for an unknown address spaced by `codeSpacing`.
    init(limits: RateLimitSettings, codeSpacing: TimeInterval) {
        self.limits = limits
        self.codeSpacing = codeSpacing
    }

    /// The window `bucket` counts in: its limit and its length.
    func window(_ bucket: RateLimitBucket) -> RateLimitWindow {
        RateLimitWindow(bucket: bucket, limit: limit(bucket), window: length(bucket))
    }

    /// Seconds a window of `bucket` lasts.
    func length(_ bucket: RateLimitBucket) -> TimeInterval {
        switch bucket {
        case .mfa, .failedPasswordMinute: 60
        case .token, .oauth, .passkey, .verify, .otp, .sensitiveChanges, .consoleActions: 300
        case .failedPasswordTenMinutes: 600
        case .anonymous, .mfaUser, .mfaFailures, .failedPasswordHour: 3600
        case .emailRecipientClient, .emailRecipient, .emailSent, .emailSentUnconfirmed, .signupEmail: 3600
        case .failedPassword: 86_400
        case .unknownRecipient: max(1, codeSpacing)
        }
    }

    /// Requests a window of `bucket` admits.
    func limit(_ bucket: RateLimitBucket) -> Int {
        switch bucket {
        case .token, .oauth: limits.token
        case .verify: limits.verify
        case .otp: limits.otp
        case .anonymous: limits.anonymous
        case .sensitiveChanges: limits.userUpdates
        case .mfa: limits.mfa
        case .mfaUser: limits.mfaPerUser
        case .mfaFailures: limits.mfaFailuresPerUser
        case .passkey: limits.passkey
        case .consoleActions: limits.consoleActions
        case .emailRecipientClient: limits.emailPerRecipientClient
        case .emailRecipient: limits.emailPerRecipient
        case .emailSent: limits.emailSent
        case .emailSentUnconfirmed: limits.emailSentUnconfirmed
        case .signupEmail: limits.signupEmailPerClient
        case .unknownRecipient: 1
        case .failedPasswordMinute: 5
        case .failedPasswordTenMinutes: 10
        case .failedPasswordHour: 20
        case .failedPassword: limits.failedPasswordsPerAccount
        }
    }
}
