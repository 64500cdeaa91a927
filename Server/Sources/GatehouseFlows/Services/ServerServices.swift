package import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
package import Logging

/// The app's wiring: the services made once at start. `buildRouter` builds each flow from them
/// with only what that flow needs (`ServerServices+Flows.swift`) and hands controllers the
/// flows; no controller sees this type.
package struct ServerServices: Sendable {
    package let configuration: ServerConfiguration
    package let storage: any AuthStorage
    let limiter: any RateLimiter
    /// This instance's rate-limit refusals per bucket (the console's overview).
    package let refusals: RateLimitRefusals
    /// ``limiter`` with the table of buckets: what the flows count requests with.
    package var rateLimits: RateLimits { RateLimits(limiter: limiter, table: RateLimitTable(configuration)) }
    package let tokens: TokenService
    /// Seals signing keys under the server secret (key rotation in tests).
    package let vault: SigningKeyVault
    let refreshTokens: RefreshTokenCodec
    let sessions: SessionIssuer
    package let audit: AuditLog
    package let codes: OneTimeCodes
    let delivery: CodeDelivery
    /// Issues the codes requests hand off (`POST /recover`), in the background.
    package let deferredIssues: DeferredIssues
    /// Delivers the mail outbox in the background.
    package let mailSender: MailSender
    let passwords: PasswordHasher
    let policy: PasswordPolicy
    package let authenticator: Authenticator
    /// ID-token verifiers of the enabled providers.
    let idTokens: [IdentityProvider: IDTokenVerifier]
    /// Apple's code exchange and token revocation, when the developer key is configured.
    let apple: AppleAccountClient?
    /// Revokes deleted users' Apple tokens in the background, when ``apple`` is configured.
    package let appleRevocations: AppleRevocationDelivery?
    /// The providers whose page signs people in (`GATEHOUSE_EXTERNAL_<NAME>_…`).
    let oauthProviders: OAuthProviders
    let logger: Logger
    package let now: @Sendable () -> Date

    /// Makes the services over an opened database.
    package static func make(
        configuration: ServerConfiguration,
        database: ServerDatabase,
        mailer: (any Mailer)?,
        now: @escaping @Sendable () -> Date,
        logger: Logger
    ) async throws -> ServerServices {
        let storage = database.storage
        let secret = try database.serverSecret()
        let codes = OneTimeCodes(secret: secret)
        let policy = try PasswordPolicy.loadBundled()
        let vault = SigningKeyVault(secret: secret)
        let tokens = try await TokenService.make(
            configuration: configuration,
            storage: storage,
            vault: vault,
            now: now()
        )
        let refreshTokens = RefreshTokenCodec(secret: secret)
        let refusals = RateLimitRefusals(since: now())
        let limiter = CountingRateLimiter(base: database.rateLimiter, refusals: refusals)
        let rateLimits = RateLimits(limiter: limiter, table: RateLimitTable(configuration))
        let mailer =
            mailer ?? configuration.smtp.map { SMTPMailer(settings: $0, logger: logger) } ?? LogMailer(logger: logger)
        let idTokens = idTokenVerifiers(configuration: configuration, logger: logger)
        let outbox = MailOutbox(sealing: MailSealing(vault: vault), wakeup: Wakeup())
        let deferredIssues = DeferredIssues(grace: configuration.mailDelivery.drainTimeout, logger: logger)
        let delivery = CodeDelivery(
            codes: codes,
            template: CodeMailTemplate(
                externalURL: configuration.externalURL,
                siteURL: configuration.siteURL,
                lifetime: configuration.codeLifetime
            ),
            outbox: outbox,
            deferred: deferredIssues,
            rateLimits: rateLimits,
            budget: MailBudget(rateLimits: rateLimits),
            lifetime: configuration.codeLifetime,
            spacing: TimeInterval(configuration.smtpMaxFrequency),
            now: now
        )
        var apple: AppleAccountClient?
        // Apple's keys: the ID-token grant's set, or (Sign in with Apple on the web alone) Apple's own.
        let appleKeys =
            idTokens[.apple]?.keys
            ?? (configuration.externalProviders.contains { $0.kind == .apple }
                ? ProviderKeySet(
                    url: configuration.appleBaseURL.appendingPathComponent("auth/keys"),
                    fetcher: .live,
                    logger: logger
                ) : nil)
        if let account = configuration.appleAccount, let keys = appleKeys {
            apple = try await AppleAccountClient.make(
                settings: account,
                baseURL: configuration.appleBaseURL,
                keys: keys,
                vault: vault,
                leeway: configuration.idTokenLeeway,
                logger: logger
            )
        }
        let oauthProviders = try await OAuthProviders.make(
            configuration: configuration,
            keepsAppleRefreshTokens: apple != nil,
            logger: logger
        )
        return ServerServices(
            configuration: configuration,
            storage: storage,
            limiter: limiter,
            refusals: refusals,
            tokens: tokens,
            vault: vault,
            refreshTokens: refreshTokens,
            sessions: SessionIssuer(tokens: tokens, refreshTokens: refreshTokens),
            audit: AuditLog(now: now),
            codes: codes,
            delivery: delivery,
            deferredIssues: deferredIssues,
            mailSender: MailSender(
                storage: storage,
                mailer: mailer,
                sealing: outbox.sealing,
                audit: AuditLog(now: now),
                settings: configuration.mailDelivery,
                wakeup: outbox.wakeup,
                logger: logger,
                now: now
            ),
            passwords: PasswordHasher(
                cost: configuration.bcryptCost,
                firebaseKeys: FirebaseHashKeyStore(storage: storage, vault: vault)
            ),
            policy: policy,
            authenticator: Authenticator(
                tokens: tokens,
                storage: storage,
                lifetime: SessionLifetime(configuration),
                now: now
            ),
            idTokens: idTokens,
            apple: apple,
            appleRevocations: apple.map { client in
                AppleRevocationDelivery(
                    storage: storage,
                    client: client,
                    audit: AuditLog(now: now),
                    interval: .milliseconds(Int64(configuration.appleRevocationInterval * 1000)),
                    logger: logger,
                    now: now
                )
            },
            oauthProviders: oauthProviders,
            logger: logger,
            now: now
        )
    }

    /// One verifier, with its own key set, per enabled provider.
    private static func idTokenVerifiers(
        configuration: ServerConfiguration,
        logger: Logger
    ) -> [IdentityProvider: IDTokenVerifier] {
        var verifiers: [IdentityProvider: IDTokenVerifier] = [:]
        for provider in IdentityProvider.allCases {
            let settings = provider == .apple ? configuration.apple : configuration.google
            guard settings.isEnabled else { continue }
            verifiers[provider] = IDTokenVerifier(
                provider: provider,
                settings: settings,
                keys: ProviderKeySet(url: settings.jwksURL, fetcher: .live, logger: logger),
                leeway: configuration.idTokenLeeway
            )
        }
        return verifiers
    }
}
