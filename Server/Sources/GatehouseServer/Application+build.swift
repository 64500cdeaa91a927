public import Foundation
public import Hummingbird
public import Logging

/// A built server: the Hummingbird application and what tests and tools reach into.
public struct GatehouseServerApp: Sendable {
    /// The application to run (`runService()`) or test (`test(.live)`).
    public let application: Application<RouterResponder<AppRequestContext>>
    /// The storage the application uses.
    public let storage: any AuthStorage
    let auth: AuthContext

    /// A `service_role` token for the admin API.
    public func serviceRoleToken() async throws -> String {
        try await auth.tokens.serviceRoleToken(now: auth.now())
    }
}

/// Builds the server: opens and migrates the database, loads or creates signing keys, and
/// registers every route.
///
/// - Parameters:
///   - configuration: Settings (see ``ServerConfiguration/init(environment:)``).
///   - mailer: Where mail goes; by default the log (no SMTP configured).
///   - now: The clock, injectable for tests.
///   - logger: The server's logger.
public func buildServer(
    configuration: ServerConfiguration,
    mailer: (any Mailer)? = nil,
    now: @escaping @Sendable () -> Date = { Date() },
    logger: Logger
) async throws -> GatehouseServerApp {
    let database = try await ServerDatabase.open(configuration, logger: logger)
    let storage = database.storage
    let secret = try database.serverSecret()
    let codes = OneTimeCodes(secret: secret)
    let auth = AuthContext(
        configuration: configuration,
        storage: storage,
        tokens: try await TokenService.make(configuration: configuration, storage: storage, now: now()),
        refreshTokens: RefreshTokenCodec(secret: secret),
        codes: codes,
        passwords: PasswordHasher(cost: configuration.bcryptCost),
        policy: PasswordPolicy.loadBundled(),
        limiter: database.rateLimiter,
        delivery: CodeDelivery(
            codes: codes,
            template: CodeMailTemplate(siteURL: configuration.siteURL, lifetime: configuration.codeLifetime),
            outbox: MailOutbox(
                mailer: mailer ?? configuration.smtp.map { SMTPMailer(settings: $0, logger: logger) }
                    ?? LogMailer(logger: logger),
                logger: logger
            ),
            limiter: database.rateLimiter,
            lifetime: configuration.codeLifetime,
            spacing: TimeInterval(configuration.smtpMaxFrequency),
            clientBudget: configuration.rateLimits.otp,
            serverBudget: configuration.rateLimits.emailSent
        ),
        idTokens: idTokenVerifiers(configuration: configuration, logger: logger),
        now: now,
        logger: logger
    )
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ErrorMiddleware())
    MetadataController(auth: auth).register(on: router)
    SignUpController(auth: auth).register(on: router)
    TokenController(
        auth: auth,
        refresh: RefreshRotation(
            storage: storage,
            refreshTokens: auth.refreshTokens,
            sessions: auth.sessions,
            audit: auth.auditLog,
            rules: RefreshDecision.Rules(configuration)
        )
    ).register(on: router)
    UserController(auth: auth).register(on: router)
    CodeController(auth: auth).register(on: router)
    AdminController(auth: auth).register(on: router)
    AdminLinkController(auth: auth).register(on: router)
    IdentityController(auth: auth).register(on: router)
    let application = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Gatehouse"),
        logger: logger
    )
    return GatehouseServerApp(application: application, storage: storage, auth: auth)
}

/// One verifier, with its own key set, per enabled provider.
private func idTokenVerifiers(configuration: ServerConfiguration, logger: Logger) -> [IdentityProvider: IDTokenVerifier]
{
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
