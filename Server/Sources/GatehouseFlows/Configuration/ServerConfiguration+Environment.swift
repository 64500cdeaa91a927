import Foundation
import GatehouseServerSupport
import GatehouseStorage

extension ServerConfiguration {
    /// Reads the configuration from `GATEHOUSE_*` variables; a bad value throws an error that
    /// names the variable.
    public init(environment: [String: String]) throws {
        self.init()
        let reader = EnvironmentReader(environment: environment)
        host = reader.string("GATEHOUSE_HOST") ?? host
        port = try reader.integer("GATEHOUSE_PORT", in: 0...65_535) ?? port
        if let url = reader.string("GATEHOUSE_DATABASE_URL") {
            database = try Self.database(from: url)
        }
        if let size = try reader.integer("GATEHOUSE_DATABASE_POOL_SIZE", in: 1...1000) {
            guard case .postgres(var settings) = database else {
                throw ConfigurationError(
                    variable: "GATEHOUSE_DATABASE_POOL_SIZE",
                    problem: "applies to PostgreSQL only"
                )
            }
            settings.poolSize = size
            database = .postgres(settings)
        }
        if let secret = reader.string("GATEHOUSE_JWT_SECRET") {
            guard secret.utf8.count >= 32 else {
                throw ConfigurationError(variable: "GATEHOUSE_JWT_SECRET", problem: "must be at least 32 bytes")
            }
            jwtSecret = secret
        }
        jwtExpiry = try reader.integer("GATEHOUSE_JWT_EXP", in: 30...604_800) ?? jwtExpiry
        issuer = reader.string("GATEHOUSE_JWT_ISSUER") ?? issuer
        siteURL = reader.string("GATEHOUSE_SITE_URL") ?? siteURL
        mailerAutoconfirm = try reader.bool("GATEHOUSE_MAILER_AUTOCONFIRM") ?? mailerAutoconfirm
        anonymousUsers = try reader.bool("GATEHOUSE_ANONYMOUS_USERS") ?? anonymousUsers
        signupDisabled = try reader.bool("GATEHOUSE_DISABLE_SIGNUP") ?? signupDisabled
        consoleEnabled = try reader.bool("GATEHOUSE_CONSOLE_ENABLED") ?? consoleEnabled
        if let smtpHost = reader.string("GATEHOUSE_SMTP_HOST") {
            smtp = SMTPSettings(
                host: smtpHost,
                port: try reader.integer("GATEHOUSE_SMTP_PORT", in: 1...65_535) ?? 587,
                username: reader.string("GATEHOUSE_SMTP_USER"),
                password: reader.string("GATEHOUSE_SMTP_PASS"),
                sender: reader.string("GATEHOUSE_SMTP_SENDER") ?? "gatehouse@localhost",
                security: try Self.smtpSecurity(reader.string("GATEHOUSE_SMTP_SECURITY")),
                trustRootsFile: reader.string("GATEHOUSE_SMTP_CA_FILE")
            )
        }
        smtpMaxFrequency = try reader.integer("GATEHOUSE_SMTP_MAX_FREQUENCY", in: 0...86_400) ?? smtpMaxFrequency
        rateLimits.token = try reader.integer("GATEHOUSE_RATE_LIMIT_TOKEN", in: 1...1_000_000) ?? rateLimits.token
        rateLimits.verify = try reader.integer("GATEHOUSE_RATE_LIMIT_VERIFY", in: 1...1_000_000) ?? rateLimits.verify
        rateLimits.otp = try reader.integer("GATEHOUSE_RATE_LIMIT_OTP", in: 1...1_000_000) ?? rateLimits.otp
        rateLimits.anonymous =
            try reader.integer("GATEHOUSE_RATE_LIMIT_ANONYMOUS", in: 1...1_000_000) ?? rateLimits.anonymous
        rateLimits.emailSent =
            try reader.integer("GATEHOUSE_RATE_LIMIT_EMAIL_SENT", in: 1...1_000_000) ?? rateLimits.emailSent
        rateLimits.userUpdates =
            try reader.integer("GATEHOUSE_RATE_LIMIT_USER_UPDATE", in: 1...1_000_000) ?? rateLimits.userUpdates
        rateLimits.mfa = try reader.integer("GATEHOUSE_RATE_LIMIT_MFA", in: 1...1_000_000) ?? rateLimits.mfa
        rateLimits.mfaPerUser =
            try reader.integer("GATEHOUSE_RATE_LIMIT_MFA_PER_USER", in: 1...1_000_000) ?? rateLimits.mfaPerUser
        rateLimits.mfaFailuresPerUser =
            try reader.integer("GATEHOUSE_RATE_LIMIT_MFA_FAILURES_PER_USER", in: 1...1_000_000)
            ?? rateLimits.mfaFailuresPerUser
        rateLimits.emailPerRecipient =
            try reader.integer("GATEHOUSE_RATE_LIMIT_EMAIL_PER_ADDRESS", in: 1...1_000_000)
            ?? rateLimits.emailPerRecipient
        rateLimits.emailPerRecipientClient =
            try reader.integer("GATEHOUSE_RATE_LIMIT_EMAIL_PER_ADDRESS_CLIENT", in: 1...1_000_000)
            ?? rateLimits.emailPerRecipientClient
        rateLimits.emailSentUnconfirmed =
            try reader.integer("GATEHOUSE_RATE_LIMIT_EMAIL_SENT_UNCONFIRMED", in: 1...1_000_000)
            ?? rateLimits.emailSentUnconfirmed
        rateLimits.signupEmailPerClient =
            try reader.integer("GATEHOUSE_RATE_LIMIT_SIGNUP_EMAIL", in: 1...1_000_000)
            ?? rateLimits.signupEmailPerClient
        rateLimits.passkey =
            try reader.integer("GATEHOUSE_RATE_LIMIT_PASSKEY", in: 1...1_000_000) ?? rateLimits.passkey
        rateLimits.consoleActions =
            try reader.integer("GATEHOUSE_RATE_LIMIT_CONSOLE_ACTIONS", in: 1...1_000_000) ?? rateLimits.consoleActions
        appleBaseURL = try reader.appleBaseURL(defaults: appleBaseURL)
        if reader.string("GATEHOUSE_APPLE_JWKS_URL") == nil {
            apple.jwksURL = appleBaseURL.appendingPathComponent("auth/keys")
        }
        apple = try reader.provider("APPLE", defaults: apple)
        try readExternalProviders(reader)
        let appleWeb = externalProviders.first { $0.kind == .apple }
        appleAccount = try reader.appleAccount(clientIDs: apple.clientIDs + (appleWeb.map { [$0.clientID] } ?? []))
        if let appleWeb, appleWeb.secret == nil, appleAccount == nil {
            throw ConfigurationError(
                variable: "GATEHOUSE_APPLE_TEAM_ID, GATEHOUSE_APPLE_KEY_ID, GATEHOUSE_APPLE_PRIVATE_KEY",
                problem: "must be set for Sign in with Apple on the web (GATEHOUSE_EXTERNAL_APPLE_CLIENT_ID): the "
                    + "server signs its client secret with the developer key (or set GATEHOUSE_EXTERNAL_APPLE_SECRET "
                    + "to a client-secret JWT made beforehand)"
            )
        }
        if let seconds = try reader.integer("GATEHOUSE_APPLE_REVOCATION_SECONDS", in: 1...86_400) {
            appleRevocationInterval = TimeInterval(seconds)
        }
        google = try reader.provider("GOOGLE", defaults: google)
        webAuthn = try reader.webAuthn(defaults: webAuthn)
        if let secret = reader.string("GATEHOUSE_SERVER_SECRET") {
            guard secret.utf8.count >= 32 else {
                throw ConfigurationError(variable: "GATEHOUSE_SERVER_SECRET", problem: "must be at least 32 bytes")
            }
            serverSecret = secret
        }
        if let days = try reader.integer("GATEHOUSE_SESSION_INACTIVITY_DAYS", in: 1...3650) {
            sessionInactivityTimeout = TimeInterval(days) * 86_400
        }
        if let days = try reader.integer("GATEHOUSE_SESSION_LIFETIME_DAYS", in: 1...3650) {
            sessionLifetime = TimeInterval(days) * 86_400
        }
        if let seconds = try reader.integer("GATEHOUSE_SESSION_SWEEP_SECONDS", in: 1...86_400) {
            sessionSweepInterval = TimeInterval(seconds)
        }
        if let days = reader.string("GATEHOUSE_AUDIT_RETENTION_DAYS") {
            auditRetention = try Self.auditRetention(days)
        }
        try readProxySettings(reader)
        try readLinkSettings(reader)
        connections.idleTimeout = try reader.integer("GATEHOUSE_IDLE_TIMEOUT", in: 1...3600) ?? connections.idleTimeout
        connections.readTimeout = try reader.integer("GATEHOUSE_READ_TIMEOUT", in: 1...3600) ?? connections.readTimeout
        connections.maxConnections =
            try reader.integer("GATEHOUSE_MAX_CONNECTIONS", in: 1...1_000_000) ?? connections.maxConnections
        connections.maxConnectionsPerClient =
            try reader.integer("GATEHOUSE_MAX_CONNECTIONS_PER_CLIENT", in: 1...1_000_000)
            ?? connections.maxConnectionsPerClient
        maxMetadataBytes = try reader.integer("GATEHOUSE_MAX_METADATA_BYTES", in: 256...1_048_576) ?? maxMetadataBytes
        metricsPort = try reader.integer("GATEHOUSE_METRICS_PORT", in: 0...65_535) ?? metricsPort
        metricsHost = reader.string("GATEHOUSE_METRICS_HOST") ?? metricsHost
        if let format = reader.string("GATEHOUSE_LOG_FORMAT") {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw ConfigurationError(variable: "GATEHOUSE_LOG_FORMAT", problem: "must be text or json")
            }
            logFormat = parsed
        }
        if let cost = try reader.integer("GATEHOUSE_BCRYPT_COST", in: 4...15) {
            bcryptCost = UInt8(cost)
        }
    }

    /// `forever`, or a number of days above zero, at most 36,500 (fractions allowed: `0.5` is
    /// twelve hours). Zero is refused rather than guessed at: it could mean "keep nothing" or
    /// "no limit".
    static func auditRetention(_ text: String) throws -> TimeInterval? {
        if text.lowercased() == "forever" { return nil }
        guard let days = Double(text), days.isFinite, days > 0, days <= 36_500 else {
            throw ConfigurationError(
                variable: "GATEHOUSE_AUDIT_RETENTION_DAYS",
                problem:
                    "must be a number of days above 0 and at most 36500 (such as 90 or 0.5), or forever to keep every entry, not “\(text)”"
            )
        }
        return days * 86_400
    }

    static func smtpSecurity(_ text: String?) throws -> SMTPSettings.Security {
        guard let text else { return .startTLS }
        guard let security = SMTPSettings.Security(rawValue: text.lowercased()) else {
            throw ConfigurationError(
                variable: "GATEHOUSE_SMTP_SECURITY",
                problem: "must be starttls or none, not “\(text)”"
            )
        }
        return security
    }

    static func database(from url: String) throws -> Database {
        if url == ":memory:" || url == "sqlite::memory:" { return .sqliteMemory }
        if url.hasPrefix("sqlite://") { return .sqliteFile(String(url.dropFirst("sqlite://".count))) }
        if url.hasPrefix("sqlite:") { return .sqliteFile(String(url.dropFirst("sqlite:".count))) }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return .postgres(try PostgresSettings(url: url))
        }
        guard !url.isEmpty, !url.contains("://") else {
            throw ConfigurationError(
                variable: "GATEHOUSE_DATABASE_URL",
                problem: "expected a SQLite path, sqlite://path or postgres://user:password@host:port/database"
            )
        }
        return .sqliteFile(url)
    }
}

struct EnvironmentReader {
    let environment: [String: String]

    func string(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError(
                variable: name,
                problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not “\(text)”"
            )
        }
        return value
    }

    /// `GATEHOUSE_<NAME>_CLIENT_IDS` (comma-separated) and `GATEHOUSE_<NAME>_JWKS_URL`.
    func provider(_ name: String, defaults: IdentityProviderSettings) throws -> IdentityProviderSettings {
        var settings = defaults
        if let ids = string("GATEHOUSE_\(name)_CLIENT_IDS") {
            settings.clientIDs = ids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        if let url = try secureURL("GATEHOUSE_\(name)_JWKS_URL") {
            settings.jwksURL = url
        }
        return settings
    }

    /// An HTTPS URL (HTTP only on a loopback host, for tests), or nil when unset.
    func secureURL(_ variable: String) throws -> URL? {
        guard let text = string(variable) else { return nil }
        guard let url = URL(string: text), let host = url.host else {
            throw ConfigurationError(variable: variable, problem: "must be a URL, not “\(text)”")
        }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        guard url.scheme == "https" || (url.scheme == "http" && loopback) else {
            throw ConfigurationError(variable: variable, problem: "must use https (http only on a loopback host)")
        }
        return url
    }

    func bool(_ name: String) throws -> Bool? {
        guard let text = string(name)?.lowercased() else { return nil }
        switch text {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationError(variable: name, problem: "must be true or false, not “\(text)”")
        }
    }
}
