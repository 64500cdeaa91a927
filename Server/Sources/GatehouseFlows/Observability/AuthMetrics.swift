import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import Metrics

/// Gatehouse's own counters and histograms, through swift-metrics: no-ops until a backend is
/// bootstrapped (``MetricsExport`` bootstraps Prometheus when `GATEHOUSE_METRICS_PORT` is set).
///
/// Every label comes from a closed vocabulary (a method, an outcome, an ``ErrorCode``, a
/// bucket, a purpose): never a user id, an address or a token.
enum AuthMetrics {
    /// How a sign-in was attempted: `POST /token`'s grant type.
    enum SignInMethod: String, Sendable {
        case password
        case idToken = "id_token"
        case passkey
        /// Through a provider's page (`/callback`), the implicit flow's session or the PKCE code.
        case oauth
        /// `grant_type=pkce`: a flow's code exchanged for a session.
        case pkce
    }

    /// How a user came to be.
    enum SignUpKind: String, Sendable {
        case password
        case anonymous
        case admin
        case invite
    }

    /// What `grant_type=refresh_token` did (``RefreshDecision``).
    enum RefreshOutcome: String, Sendable {
        case rotated
        /// The parent of the current token came back (a lost answer): the current one again.
        case parentReplay = "parent_replay"
        /// An older token inside the reuse interval: the current one again.
        case reuseInsideInterval = "reuse_inside_interval"
        /// Two requests raced with the same token; the loser gets the winner's child.
        case concurrentRotation = "concurrent_rotation"
        /// An older token outside the reuse interval: the session is revoked.
        case theftDetected = "theft_detected"
        case expired
        case banned
        case notFound = "not_found"
    }

    /// A success, or the stable code of the refusal.
    static func outcome(of error: (any Error)?) -> String {
        guard let error else { return "success" }
        if let error = error as? APIError { return error.code.rawValue }
        return DatabaseUnavailable.classify(error) != nil
            ? ErrorCode.databaseUnavailable.rawValue : ErrorCode.unexpectedFailure.rawValue
    }

    static func signIn(_ method: SignInMethod, error: (any Error)?) {
        Counter(
            label: "gatehouse_sign_ins_total",
            dimensions: [("method", method.rawValue), ("outcome", outcome(of: error))]
        )
        .increment()
    }

    /// Runs a sign-in flow and counts its outcome (``signIn(_:error:)``): the flows count their
    /// own outcomes, so a sign-in is counted once whichever route or page started it.
    static func countingSignIn<Result>(
        _ method: SignInMethod,
        _ signIn: () async throws -> Result
    ) async throws -> Result {
        do {
            let result = try await signIn()
            Self.signIn(method, error: nil)
            return result
        } catch {
            Self.signIn(method, error: error)
            throw error
        }
    }

    /// A second factor's kind.
    enum SecondFactor: String, Sendable {
        case totp
    }

    /// A second-factor verification (`POST /factors/{id}/verify`): `success` or the refusal's code.
    static func secondFactorVerified(_ factor: SecondFactor, error: (any Error)?) {
        Counter(
            label: "gatehouse_mfa_verifications_total",
            dimensions: [("factor", factor.rawValue), ("outcome", outcome(of: error))]
        )
        .increment()
    }

    /// A passkey ceremony (WebAuthn): creating a passkey or signing in with one.
    enum PasskeyCeremony: String, Sendable {
        case registration
        case authentication
    }

    /// A passkey verification (`POST /passkeys/registration/verify` and
    /// `/passkeys/authentication/verify`): `success` or the refusal's code.
    static func passkeyVerified(_ ceremony: PasskeyCeremony, error: (any Error)?) {
        Counter(
            label: "gatehouse_passkey_verifications_total",
            dimensions: [("ceremony", ceremony.rawValue), ("outcome", outcome(of: error))]
        )
        .increment()
    }

    static func signUp(_ kind: SignUpKind) {
        Counter(label: "gatehouse_sign_ups_total", dimensions: [("kind", kind.rawValue)]).increment()
    }

    static func refresh(_ outcome: RefreshOutcome) {
        Counter(label: "gatehouse_refreshes_total", dimensions: [("outcome", outcome.rawValue)]).increment()
    }

    /// A one-time code (or link) issued for mailing.
    static func codeSent(_ purpose: CodePurpose) {
        Counter(label: "gatehouse_codes_sent_total", dimensions: [("purpose", purpose.rawValue)]).increment()
    }

    /// A code (or link) redeemed at `/verify`, or refused (`otp_expired`, `validation_failed`, …).
    static func codeVerified(error: (any Error)?) {
        if let error {
            Counter(label: "gatehouse_codes_failed_total", dimensions: [("outcome", outcome(of: error))]).increment()
        } else {
            Counter(label: "gatehouse_codes_verified_total").increment()
        }
    }

    static func rateLimited(_ bucket: RateLimitBucket) {
        Counter(label: "gatehouse_rate_limit_refusals_total", dimensions: [("bucket", bucket.rawValue)]).increment()
    }

    /// What became of one delivery attempt from the mail outbox (``MailSender``).
    enum MailOutcome: String, Sendable {
        /// The mailer took it.
        case sent
        /// A temporary failure: tried again later.
        case retried
        /// A permanent failure (an SMTP `5xx`): given up, with an audit entry.
        case rejected
        /// Still failing after the retry window (an hour): given up, with an audit entry.
        case abandoned
        /// Not sent: the code it carries was replaced, used or expired meanwhile.
        case superseded
    }

    /// One delivery from the outbox, and how long the mailer took when it was asked.
    static func mail(_ outcome: MailOutcome, duration: Duration? = nil) {
        Counter(label: "gatehouse_mail_deliveries_total", dimensions: [("outcome", outcome.rawValue)]).increment()
        if let duration {
            Metrics.Timer(
                label: "gatehouse_mail_delivery_duration_seconds",
                dimensions: [("outcome", outcome.rawValue)]
            )
            .record(duration: duration)
        }
    }

    /// The outbox's depth and the age of its oldest mail, sampled when `/metrics` is read.
    static func mailOutbox(_ depth: MailOutboxDepth, now: Date) {
        Gauge(label: "gatehouse_mail_outbox_depth").record(depth.count)
        Gauge(label: "gatehouse_mail_outbox_oldest_age_seconds")
            .record(depth.oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    }

    /// How long a bcrypt job waited for a thread of the hashing pool.
    static func bcryptQueueWait(_ duration: Duration) {
        Metrics.Timer(label: "gatehouse_bcrypt_queue_wait_seconds").record(duration: duration)
    }

    /// Sessions in the database, sampled when `/metrics` is read.
    static func activeSessions(_ count: Int) {
        Gauge(label: "gatehouse_active_sessions").record(count)
    }
}
