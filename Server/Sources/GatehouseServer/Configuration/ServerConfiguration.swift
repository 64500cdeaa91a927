public import Foundation

/// Everything the server can be configured with, read from `GATEHOUSE_*` environment variables.
///
/// Defaults are the safe ones: ES256 tokens, e-mail confirmation on, 10-minute codes, rate limits on.
public struct ServerConfiguration: Sendable {
    /// Where the database lives.
    public enum Database: Sendable, Equatable {
        /// A SQLite file.
        case sqliteFile(String)
        /// An in-memory SQLite database (tests).
        case sqliteMemory
        /// A PostgreSQL database, shared by several server instances.
        case postgres(PostgresSettings)
    }

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
    public var mailerAutoconfirm = false
    public var anonymousUsers = true
    public var signupDisabled = false
    public var smtp: SMTPSettings?
    /// Seconds between two messages of one kind to one address.
    public var smtpMaxFrequency: Int = 60
    public var rateLimits = RateLimitSettings()
    /// Sign in with Apple (`GATEHOUSE_APPLE_CLIENT_IDS`, `GATEHOUSE_APPLE_JWKS_URL`).
    public var apple = IdentityProviderSettings.apple
    /// Sign in with Google (`GATEHOUSE_GOOGLE_CLIENT_IDS`, `GATEHOUSE_GOOGLE_JWKS_URL`).
    public var google = IdentityProviderSettings.google
    /// Seconds an ID token's `exp`/`nbf`/`iat` may be off (clock skew with the provider).
    public var idTokenLeeway: TimeInterval = 30
    /// Secret for refresh tokens and code HMACs; when `nil`, kept in a 0600 file beside the database.
    public var serverSecret: String?
    /// Sessions unused this long (seconds) end.
    public var sessionInactivityTimeout: TimeInterval = 30 * 86_400
    /// Sessions end this long (seconds) after sign-in, however active.
    public var sessionLifetime: TimeInterval = 365 * 86_400
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
    /// E-mails sent per hour (whole server).
    public var emailSent = 30
    /// Failed password attempts per account per hour.
    public var failedPasswordsPerAccount = 100
    /// `PUT /user` and `DELETE /user` requests per user per 5 minutes.
    public var userUpdates = 30

    public init() {}
}
