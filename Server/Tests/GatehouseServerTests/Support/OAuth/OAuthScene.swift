import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// A server with providers whose pages sign people in, all on loopback (issue 36): two OpenID
/// Connect providers (`keycloak` and `okta`, each a ``FakeOIDCProvider``), GitHub (a
/// ``FakeGitHub`` as GitHub Enterprise), and, when asked, Google (a third fake at Google's name)
/// and Apple on the web (``FakeApple``). The server listens on a port chosen first, so that the
/// redirect URI it gives the providers is its own. The app it sends browsers back to is
/// ``app`` (the site URL's origin).
struct OAuthScene {
    let harness: Harness
    /// The server under test: the harness's, or one built on its configuration with another mailer.
    let server: GatehouseServerApp
    let keycloak: FakeOIDCProvider
    let okta: FakeOIDCProvider
    let github: FakeGitHub
    let google: FakeOIDCProvider?
    let apple: FakeApple?
    let port: Int

    /// The app's origin and page, where sign-ins land (nothing listens there but in the browser
    /// tests, which serve the page themselves).
    static let site = "http://127.0.0.1:5999"
    static let app = site + "/app"
    let site: String
    /// The Services ID of Apple's web sign-in.
    static let appleServicesID = "com.example.web"

    var url: String { "http://127.0.0.1:\(port)" }
    var clock: TestClock { harness.clock }

    static func make(
        google withGoogle: Bool = false,
        apple withApple: Bool = false,
        site: String = OAuthScene.site,
        mailer: (any Mailer)? = nil,
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> OAuthScene {
        let clock = TestClock()
        let keycloak = try await FakeOIDCProvider.start(
            clientID: "keycloak-client",
            clientSecret: "k-secret",
            clock: clock.now
        )
        let okta = try await FakeOIDCProvider.start(clientID: "okta-client", clientSecret: "o-secret", clock: clock.now)
        let github = try await FakeGitHub.start()
        let google =
            withGoogle
            ? try await FakeOIDCProvider.start(clientID: "google-web", clientSecret: "g-secret", clock: clock.now) : nil
        let apple = withApple ? try await FakeApple(clientID: appleServicesID, clock: clock.now) : nil
        let port = LoopbackPort.free()
        let harness = try await Harness.make(clock: clock) { configuration in
            configuration.siteURL = site
            configuration.apiExternalURL = "http://127.0.0.1:\(port)"
            configuration.corsAllowedOrigins = [site]
            configuration.externalProviders = [
                ExternalProviderSettings(
                    name: "keycloak",
                    kind: .openIDConnect(issuer: keycloak.issuer),
                    clientID: keycloak.clientID,
                    secret: keycloak.clientSecret
                ),
                ExternalProviderSettings(
                    name: "okta",
                    kind: .openIDConnect(issuer: okta.issuer),
                    clientID: okta.clientID,
                    secret: okta.clientSecret
                ),
                ExternalProviderSettings(
                    name: "github",
                    kind: .github(url: github.baseURL),
                    clientID: github.clientID,
                    secret: github.clientSecret
                ),
            ]
            if let google {
                configuration.externalProviders.append(
                    ExternalProviderSettings(
                        name: "google",
                        kind: .openIDConnect(issuer: google.issuer),
                        clientID: google.clientID,
                        secret: google.clientSecret
                    )
                )
            }
            if let apple {
                configuration.appleBaseURL = apple.provider.baseURL
                configuration.appleAccount = apple.account
                configuration.externalProviders.append(
                    ExternalProviderSettings(name: "apple", kind: .apple, clientID: appleServicesID, secret: nil)
                )
            }
            configure(&configuration)
        }
        var server = harness.server
        if let mailer {
            server = try await buildServer(
                configuration: harness.configuration,
                mailer: mailer,
                now: clock.now,
                logger: {
                    var logger = Logger(label: "oauth-scene")
                    logger.logLevel = .critical
                    return logger
                }()
            )
        }
        return OAuthScene(
            harness: harness,
            server: server,
            keycloak: keycloak,
            okta: okta,
            github: github,
            google: google,
            apple: apple,
            port: port,
            site: site
        )
    }

    /// Runs `body` against the server, then stops everything.
    func run(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        do {
            try await LiveServer.run(server.application, fixedPort: port) { client in
                try await body(Client(client: client, mailer: harness.mailer, server: server))
            }
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    func stop() async {
        try? await server.storage.close()
        try? await harness.server.storage.close()
        await keycloak.stop()
        await okta.stop()
        await github.stop()
        await google?.stop()
        await apple?.stop()
        harness.removeFiles()
    }

    /// The browser's trip: `/authorize` (with `query`), the provider's consent page, a click on
    /// Allow (or Cancel), and the provider's redirect to `/callback`, returned unfollowed.
    func toCallback(
        _ provider: String,
        query: [(String, String)] = [],
        decision: String = "allow",
        browser: TestBrowser = TestBrowser()
    ) async throws -> String {
        let authorize = try await browser.get(
            url + "/authorize?" + TestBrowser.formEncoded([("provider", provider)] + query)
        )
        try #require(authorize.status == 302, "GET /authorize answered \(authorize.status): \(authorize.body)")
        let consentPage = try await browser.get(try #require(authorize.location))
        try #require(
            consentPage.status == 200,
            "the provider's page answered \(consentPage.status): \(consentPage.body)"
        )
        let request = try #require(consentPage.hidden("request"), "no consent form: \(consentPage.body)")
        let action = try #require(
            consentPage.body.range(of: #"action="([^"]+)""#, options: .regularExpression)
                .map { String(consentPage.body[$0].dropFirst(8).dropLast()) }
        )
        let location = try #require(authorize.location)
        let origin = try #require(URL(string: location)).deletingPathComponents()
        let answer = try await browser.post(origin + action, form: [("request", request), ("decision", decision)])
        try #require(answer.status == 302, "the consent answered \(answer.status): \(answer.body)")
        return try #require(answer.location)
    }

    /// The whole trip: ``toCallback(_:query:decision:browser:)``, then the callback, whose
    /// redirect (to the app) is returned.
    func signIn(
        _ provider: String,
        query: [(String, String)] = [],
        decision: String = "allow",
        browser: TestBrowser = TestBrowser()
    ) async throws -> String {
        let callback = try await toCallback(provider, query: query, decision: decision, browser: browser)
        return try await follow(callback, browser: browser)
    }

    /// Opens a callback URL as the browser does; returns where the server sends it.
    func follow(_ callback: String, browser: TestBrowser = TestBrowser()) async throws -> String {
        let landed = try await browser.get(callback)
        try #require(landed.status == 302, "/callback answered \(landed.status): \(landed.body)")
        return try #require(landed.location)
    }

    /// `POST /token?grant_type=pkce`.
    func exchange(_ code: String, verifier: String, client: Client) async throws -> Reply {
        try await client.post(
            "/token?grant_type=pkce",
            #"{"auth_code":"\#(code)","code_verifier":"\#(verifier)"}"#
        )
    }
}

/// A PKCE verifier and its S256 challenge, as an app makes them.
struct PKCEPair: Sendable {
    let verifier: String
    var challenge: String { PKCEChallenge.s256(verifier) }

    init() {
        verifier = (0..<2).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
    }

    /// The query of `/authorize` with this challenge.
    var query: [(String, String)] { [("code_challenge", challenge), ("code_challenge_method", "s256")] }
}

extension URL {
    /// `scheme://host:port`.
    func deletingPathComponents() -> String {
        "\(scheme ?? "http")://\(host ?? "127.0.0.1")\(port.map { ":\($0)" } ?? "")"
    }
}
