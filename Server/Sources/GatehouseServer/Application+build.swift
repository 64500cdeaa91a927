public import Foundation
public import GatehouseFlows
import GatehouseServerSupport
public import GatehouseStorage
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import ServiceLifecycle

/// A built server: the Hummingbird application and what tests and tools reach into.
public struct GatehouseServerApp: Sendable {
    /// The application to run (`runService()`) or test (`test(.live)`).
    public let application: Application<RouterResponder<AppRequestContext>>
    /// The storage the application uses.
    public let storage: any AuthStorage
    /// The services the flows were built from (tests read the password hasher's counter).
    let services: ServerServices
    /// The `GET /metrics` listener, when `GATEHOUSE_METRICS_PORT` is set; run it beside
    /// ``application``.
    public let metricsApplication: Application<RouterResponder<BasicRequestContext>>?

    /// Deletes the sessions that have ended by inactivity or lifetime now, as the application's
    /// background sweep does every `sessionSweepInterval`.
    /// - Returns: How many it deleted.
    @discardableResult
    public func sweepEndedSessions() async throws -> Int {
        try await sweep([.endedSessions])[.endedSessions] ?? 0
    }

    /// Runs one pass of the application's background sweep now, over `kinds`.
    /// - Returns: How many rows of each kind it deleted.
    @discardableResult
    public func sweep(_ kinds: [SweptRows] = SweptRows.allCases) async throws -> [SweptRows: Int] {
        try await services.storageSweep(logger: application.logger).sweep(kinds)
    }

    /// Runs one pass of the Apple token revocations that are due, as the application's
    /// background service does every `appleRevocationInterval` and after each deletion.
    /// - Returns: How many tokens Apple revoked in this pass (0 without Apple's developer key).
    @discardableResult
    public func deliverAppleRevocations() async throws -> Int {
        try await services.appleRevocations?.deliver().revoked ?? 0
    }

    /// Runs passes of the mail sender now until one finds nothing due, as the application's
    /// sender does whenever a request queues mail and every poll interval.
    public func deliverMail() async {
        await services.mailSender.deliverDue()
    }

    /// How much mail waits in the outbox (queued, being sent, or waiting for a retry).
    public func mailOutboxDepth() async throws -> MailOutboxDepth {
        try await storage.read { try await $0.mailOutboxDepth() }
    }

    /// How many codes requests handed off are still to be issued (``DeferredIssues``); each
    /// one's mail is in the outbox once it is.
    public var codesBeingIssued: Int {
        services.deferredIssues.pending
    }

    /// Wakes the mail sender (a test that moved the clock past a retry's time).
    public func wakeMailSender() {
        services.mailSender.wakeup.signal()
    }

    /// A `service_role` token for the admin API.
    public func serviceRoleToken() async throws -> String {
        try await services.tokens.serviceRoleToken(now: services.now())
    }
}

/// Builds the server: opens and migrates the database (``ServerDatabase``), loads or creates
/// signing keys, and registers every route with the flow it calls.
///
/// - Parameters:
///   - configuration: Settings (see ``ServerConfiguration/init(environment:)``).
///   - database: The opened and migrated database; `nil` opens the configured one.
///   - mailer: Where mail goes; by default SMTP when configured, else the log.
///   - now: The clock, injectable for tests.
///   - logger: The server's logger.
public func buildServer(
    configuration: GatehouseFlows.ServerConfiguration,
    database opened: ServerDatabase? = nil,
    mailer: (any Mailer)? = nil,
    now: @escaping @Sendable () -> Date = { Date() },
    logger: Logger
) async throws -> GatehouseServerApp {
    if configuration.metricsPort != nil { MetricsExport.bootstrap() }
    let database: ServerDatabase
    if let opened {
        database = opened
    } else {
        database = try await ServerDatabase.open(configuration, logger: logger)
    }
    let services = try await ServerServices.make(
        configuration: configuration,
        database: database,
        mailer: mailer,
        now: now,
        logger: logger
    )
    let connections = configuration.connections
    let share = ClientConnectionShare(
        share: connections.maxConnectionsPerClient,
        trustedProxies: configuration.trustedProxies
    )
    let application = Application(
        router: buildRouter(services),
        server: .http1(configuration: http1(connections, share: share)),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "Gatehouse",
            availableConnectionsDelegate: MaximumAvailableConnections(connections.maxConnections, logger: logger)
        ),
        services: backgroundServices(services, database: database, logger: logger),
        logger: logger
    )
    let metrics = configuration.metricsPort.map { port in
        MetricsExport.application(
            host: configuration.metricsHost,
            port: port,
            server: http1(connections, share: nil),
            storage: database.storage,
            logger: logger
        )
    }
    return GatehouseServerApp(
        application: application,
        storage: database.storage,
        services: services,
        metricsApplication: metrics
    )
}

/// The HTTP/1 settings of a listener: the read deadline of a request's body, the idle timeout
/// and, for the API, each client's share of the connections.
private func http1(_ connections: ConnectionSettings, share: ClientConnectionShare?) -> HTTP1Channel.Configuration {
    let readTimeout = TimeAmount.seconds(Int64(connections.readTimeout))
    return HTTP1Channel.Configuration(
        additionalChannelHandlers: [RequestReadDeadline(timeout: readTimeout)] + (share.map { [$0.handler()] } ?? []),
        idleTimeout: .seconds(Int64(connections.idleTimeout))
    )
}

/// The application's services besides the HTTP server, in the order they start; a graceful
/// shutdown stops them in the reverse order, after the HTTP server has answered what it had:
/// Apple token revocations (10 s), then the codes requests handed off (``DeferredIssues``: up
/// to 10 s, so their mail is queued), then the mail sender (drains for up to 10 s; the rest
/// stays queued), then the storage sweep (its batch under way), then the database's own work
/// (PostgreSQL's rate-limit flush, up to 2 s). The PostgreSQL pool, run by
/// ``runServer(configuration:logger:)``, stops after all of them.
private func backgroundServices(_ services: ServerServices, database: ServerDatabase, logger: Logger) -> [any Service] {
    var list = database.services
    list.append(services.storageSweep(logger: logger))
    list.append(services.mailSender)
    list.append(services.deferredIssues)
    if let revocations = services.appleRevocations { list.append(revocations) }
    return list
}

/// Every route, behind the request log (and metrics), CORS, error rendering and the client
/// address: public ones, the caller's own and the admin API (each behind ``BearerAuthenticator``
/// and in its child context, ``CallerRequestContext`` or ``AdminRequestContext``), and `/token`
/// (behind its rate limit).
func buildRouter(_ services: ServerServices) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: NoStoreMiddleware())
    if services.configuration.metricsPort != nil { router.add(middleware: MetricsMiddleware()) }
    router.add(middleware: BrowserOriginMiddleware(allowedOrigins: services.configuration.corsAllowedOrigins))
    let routeMethods = RouteMethods()
    router.add(middleware: ErrorMiddleware(routeMethods: routeMethods))
    router.add(
        middleware: ClientAddressMiddleware(
            rule: ClientAddress(
                trustedProxies: services.configuration.trustedProxies,
                header: services.configuration.rateLimitHeader
            )
        )
    )
    let signedIn = router.group()
        .add(middleware: BearerAuthenticator(authenticator: services.authenticator, audience: .signedInUser))
        .group(context: CallerRequestContext.self)
    let admin = router.group()
        .add(middleware: BearerAuthenticator(authenticator: services.authenticator, audience: .admin))
        .group(context: AdminRequestContext.self)
    let tokenRoute = router.group()
        .add(
            middleware: RateLimitMiddleware(
                rateLimits: services.rateLimits,
                bucket: .token,
                now: services.now
            )
        )

    MetadataController(configuration: services.configuration, publicJWKs: services.tokens.publicJWKs)
        .register(on: router)
    OperationsController(storage: services.storage, readinessTimeout: services.configuration.readinessTimeout)
        .register(on: router)
    SignUpController(signUp: services.signUp, anonymous: services.anonymousSignUp, redirects: services.redirects)
        .register(on: router)
    TokenController(
        password: services.passwordSignIn,
        refresh: services.refreshRotation,
        idToken: services.idTokenSignIn,
        pkce: services.pkceExchange
    )
    .register(on: tokenRoute)
    CodeController(
        verification: services.codeVerification,
        magicCode: services.magicCodeRequest,
        recovery: services.passwordRecovery,
        resend: services.codeResend,
        redirects: services.redirects
    )
    .register(on: router)
    let oauth = OAuthController(authorization: services.oauthAuthorization, callback: services.oauthCallback)
    // The provider's page is opened by a browser, the callback comes from one: both count against
    // their own window per client address, as `/token` does.
    oauth.register(
        on: router.group()
            .add(
                middleware: RateLimitMiddleware(
                    rateLimits: services.rateLimits,
                    bucket: .oauth,
                    now: services.now
                )
            )
    )
    oauth.registerLinking(on: signedIn)
    UserController(
        update: services.userUpdate,
        deletion: services.accountDeletion,
        logout: services.logout,
        reauthentication: services.reauthentication,
        redirects: services.redirects
    )
    .register(on: signedIn)
    IdentityController(unlink: services.identityUnlink).register(on: signedIn)
    AppleNotificationController(handling: services.appleNotificationHandling).register(on: router)
    SessionController(listing: services.sessionListing, ending: services.sessionEnding).register(on: signedIn)
    FactorController(
        enrollment: services.factorEnrollment,
        challenge: services.factorChallenge,
        verification: services.factorVerification,
        unenrollment: services.factorUnenrollment
    )
    .register(on: signedIn)
    AdminController(
        lookup: services.adminUserLookup,
        creation: services.adminUserCreation,
        update: services.adminUserUpdate,
        deletion: services.adminUserDeletion
    )
    .register(on: admin)
    AdminLinkController(invitation: services.invitation, links: services.linkGeneration).register(on: admin)
    AdminSessionController(
        lookup: services.adminUserLookup,
        listing: services.sessionListing,
        ending: services.adminSessionEnding
    )
    .register(on: admin)
    AdminFactorController(lookup: services.adminUserLookup, unenrollment: services.factorUnenrollment)
        .register(on: admin)
    let passkeys = PasskeyController(
        registration: services.passkeyRegistration,
        signIn: services.passkeySignIn,
        management: services.passkeyManagement
    )
    // The ceremonies count against their own window per client address, before anything else.
    let passkeyLimit = RateLimitMiddleware(
        rateLimits: services.rateLimits,
        bucket: .passkey,
        now: services.now
    )
    passkeys.registerSignIn(on: router.group().add(middleware: passkeyLimit))
    passkeys.registerRegistration(
        on: router.group().add(middleware: passkeyLimit)
            .add(middleware: BearerAuthenticator(authenticator: services.authenticator, audience: .signedInUser))
            .group(context: CallerRequestContext.self)
    )
    passkeys.registerManagement(on: signedIn)
    passkeys.registerAdmin(on: admin, lookup: services.adminUserLookup)
    // `GATEHOUSE_CONSOLE_ENABLED=false`: no console route at all.
    if services.configuration.consoleEnabled { services.consoleController.register(on: router) }
    routeMethods.record(router.routes)
    return router
}
