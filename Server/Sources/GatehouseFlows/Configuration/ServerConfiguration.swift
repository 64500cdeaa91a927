public import Foundation
package import GatehouseServerSupport
public import GatehouseStorage

/// Everything the server can be configured with, read from `GATEHOUSE_*` environment variables.
///
/// Defaults are the safe ones: ES256 tokens, e-mail confirmation on, 10-minute codes, rate limits on.
public struct ServerConfiguration: Sendable {
    /// Where the database lives (``DatabaseLocation``, of the storage layer).
    public typealias Database = DatabaseLocation

    public var host: String = "127.0.0.1"
    public var port: Int = 9999
    public var database: Database = .sqliteFile("gatehouse.sqlite")
    /// HS256 secret; when `nil`, ES256 keys are generated and kept in the database.
    public var jwtSecret: String?
    /// Access-token lifetime in seconds.
    public var jwtExpiry: Int = 3600
    /// The `iss` claim.
    public var issuer: String = "gatehouse"
    public var siteURL: String = "http://localhost:3000"
    /// The server's public base URL, the base of links in mail and of `action_link`
    /// (`GATEHOUSE_API_EXTERNAL_URL`); `nil`: `http://<host>:<port>`.
    public var apiExternalURL: String?
    /// Where `GET /verify` may redirect besides the site (`GATEHOUSE_URI_ALLOW_LIST`).
    var uriAllowList: [RedirectPolicy.Entry] = []
    public var mailerAutoconfirm = false
    public var anonymousUsers = true
    public var signupDisabled = false
    /// Whether `/console` is served (`GATEHOUSE_CONSOLE_ENABLED`); even when on, it stays off
    /// until `gatehouse-server operator grant` made an operator.
    public var consoleEnabled = true
    public var smtp: SMTPSettings?
    /// Seconds between two messages of one kind to one address.
    public var smtpMaxFrequency: Int = 60
    /// How the mail outbox is delivered: retries, leases, the drain at shutdown.
    public var mailDelivery = MailDeliverySettings()
    public var rateLimits = RateLimitSettings()
    /// Sign in with Apple (`GATEHOUSE_APPLE_CLIENT_IDS`, `GATEHOUSE_APPLE_JWKS_URL`).
    public var apple = IdentityProviderSettings.apple
    /// Where Apple's `/auth/token`, `/auth/revoke` and `/auth/keys` are
    /// (`GATEHOUSE_APPLE_BASE_URL`; tests point it at a fake on loopback).
    public var appleBaseURL = URL(string: "https://appleid.apple.com")!
    /// The developer key that exchanges Apple's authorization codes and revokes Apple's tokens
    /// (`GATEHOUSE_APPLE_TEAM_ID`, `GATEHOUSE_APPLE_KEY_ID`, `GATEHOUSE_APPLE_PRIVATE_KEY`);
    /// `nil`: codes are ignored.
    public var appleAccount: AppleAccountSettings?
    /// Seconds between passes that deliver pending Apple token revocations
    /// (`GATEHOUSE_APPLE_REVOCATION_SECONDS`); a deletion also starts one at once.
    public var appleRevocationInterval: TimeInterval = 60
    /// Sign in with Google (`GATEHOUSE_GOOGLE_CLIENT_IDS`, `GATEHOUSE_GOOGLE_JWKS_URL`).
    public var google = IdentityProviderSettings.google
    /// Providers whose page signs people in through the browser (`GET /authorize`):
    /// `GATEHOUSE_EXTERNAL_<NAME>_CLIENT_ID` and its siblings (``ExternalProviderSettings``).
    public var externalProviders: [ExternalProviderSettings] = []
    /// Seconds an ID token's `exp`/`nbf`/`iat` may be off (clock skew with the provider).
    public var idTokenLeeway: TimeInterval = 30
    /// Secret for refresh tokens and code HMACs; when `nil`, kept in a 0600 file beside the database.
    public var serverSecret: String?
    /// Sessions unused this long (seconds) end.
    public var sessionInactivityTimeout: TimeInterval = 30 * 86_400
    /// Sessions end this long (seconds) after sign-in, however active.
    public var sessionLifetime: TimeInterval = 365 * 86_400
    /// Seconds between sweeps that delete sessions ended by inactivity or lifetime, expired
    /// codes, challenges and nonces, closed rate-limit windows and old audit entries.
    public var sessionSweepInterval: TimeInterval = 600
    /// Seconds audit entries are kept before the sweep deletes them
    /// (`GATEHOUSE_AUDIT_RETENTION_DAYS`, default 90 days); `nil` keeps them forever.
    public var auditRetention: TimeInterval? = 90 * 86_400
    /// Seconds within which a rotated refresh token may be presented again.
    public var refreshReuseInterval: TimeInterval = 10
    /// Seconds an e-mailed code stays valid.
    public var codeLifetime: TimeInterval = 600
    /// Wrong attempts after which a code is dead.
    public var maximumCodeAttempts = 5
    /// bcrypt cost for new password hashes (10 is GoTrue's and the default).
    public var bcryptCost: UInt8 = 10
    /// Leeway in seconds for `exp` and `nbf` checks.
    public var jwtLeeway: Int = 30
    /// Networks whose connections may name the client in ``rateLimitHeader`` (`GATEHOUSE_TRUSTED_PROXIES`).
    package var trustedProxies: [CIDR] = []
    /// The header a trusted proxy puts the client address in, such as `X-Forwarded-For`
    /// (`GATEHOUSE_RATE_LIMIT_HEADER`); unset: the socket peer is the client.
    public var rateLimitHeader: String?
    /// Origins browsers may call from (`GATEHOUSE_CORS_ALLOWED_ORIGINS`; `*` for any); empty: none.
    public var corsAllowedOrigins: [String] = []
    /// Connection timeouts and limits.
    public var connections = ConnectionSettings()
    /// How long `GET /ready` waits for the database before answering 503 (a database that
    /// hangs must not hang the probe).
    public var readinessTimeout: Duration = .seconds(2)
    /// The most bytes `user_metadata` or `app_metadata` takes serialised (`GATEHOUSE_MAX_METADATA_BYTES`).
    public var maxMetadataBytes: Int = 16_384
    /// `GATEHOUSE_METRICS_PORT`: where `GET /metrics` (Prometheus text) listens, on
    /// ``metricsHost``; nil (the default): no metrics listener, and no metrics backend bootstrapped.
    public var metricsPort: Int?
    /// `GATEHOUSE_METRICS_HOST`: the interface of the metrics listener (default 127.0.0.1, so
    /// the API can be public while metrics stay private).
    public var metricsHost = "127.0.0.1"
    /// `GATEHOUSE_LOG_FORMAT`: `text` (the default, for people) or `json` (one object a line).
    public var logFormat: LogFormat = .text
    /// Passkeys: the WebAuthn relying party (`GATEHOUSE_WEBAUTHN_*`); off unless an RP id is set.
    public var webAuthn = WebAuthnSettings()

    /// Creates the default configuration.
    public init() {}
}

/// SMTP delivery settings.
public struct SMTPSettings: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: String, Sendable, Equatable {
        /// Upgrade with STARTTLS, and fail if the server does not offer it (the default).
        case startTLS = "starttls"
        /// Plain text, for a relay on a trusted network; chosen explicitly.
        case none
    }

    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var sender: String
    public var security: Security
    /// PEM file of certificates to trust instead of the system's (a private relay's CA).
    public var trustRootsFile: String?
    public var heloName: String
    /// How long to wait for each reply before giving up.
    public var replyTimeout: Duration

    public init(
        host: String,
        port: Int,
        username: String? = nil,
        password: String? = nil,
        sender: String,
        security: Security = .startTLS,
        trustRootsFile: String? = nil,
        heloName: String = "localhost",
        replyTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.sender = sender
        self.security = security
        self.trustRootsFile = trustRootsFile
        self.heloName = heloName
        self.replyTimeout = replyTimeout
    }
}

/// Requests allowed per window for each rate-limit bucket, per client address.
public struct RateLimitSettings: Sendable, Equatable {
    /// `/token` requests per 5 minutes.
    public var token = 150
    /// `/verify` requests per 5 minutes.
    public var verify = 30
    /// `/signup`, `/otp`, `/recover`, `/resend` requests per 5 minutes.
    public var otp = 30
    /// Anonymous sign-ups per hour.
    public var anonymous = 30
    /// E-mails sent per hour to confirmed addresses (whole server).
    public var emailSent = 30
    /// E-mails sent per hour to addresses never confirmed (whole server): their own, smaller
    /// budget, so sign-ups of fresh addresses cannot starve mail to confirmed ones.
    public var emailSentUnconfirmed = 20
    /// Sign-up mails per client network per hour (below ``emailSentUnconfirmed``).
    public var signupEmailPerClient = 10
    /// Mail requests for one address per hour, of every kind, from all networks together.
    public var emailPerRecipient = 20
    /// Mail requests for one address per hour from one client network (below ``emailPerRecipient``).
    public var emailPerRecipientClient = 5
    /// Failed passwords per account and client network per day; shorter windows allow 5 a
    /// minute, 10 per ten minutes and 20 an hour (growing delays, never a lockout of the owner
    /// elsewhere).
    public var failedPasswordsPerAccount = 100
    /// `PUT /user` and `DELETE /user` requests per user per 5 minutes.
    public var userUpdates = 30
    /// Factor challenges and verifies per client address per minute (GoTrue's 15).
    public var mfa = 15
    /// Factor challenges and verifies per user and client network per hour.
    public var mfaPerUser = 30
    /// Wrong factor codes per user per hour, from every network together (a session at AAL2
    /// is never held back).
    public var mfaFailuresPerUser = 30
    /// Passkey ceremony requests (registration and sign-in options and verifies) per 5 minutes.
    public var passkey = 60
    /// The console's forms per operator per 5 minutes (signing out is never counted).
    public var consoleActions = 60

    public init() {}
}

/// How `gatehouse-server` writes its log (`GATEHOUSE_LOG_FORMAT`).
public enum LogFormat: String, Sendable, Equatable {
    /// swift-log's stream handler: one readable line per entry.
    case text
    /// ``JSONLogHandler``: one JSON object per line.
    case json
}
