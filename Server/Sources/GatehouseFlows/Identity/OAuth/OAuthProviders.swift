import Foundation
import Logging

/// The providers whose page signs people in, by name (``ExternalProviderSettings``), as clients
/// the flows talk to.
struct OAuthProviders: Sendable {
    let clients: [String: any OAuthProviderClient]

    /// The client of `name` (lowercased), if configured.
    func client(_ name: String) -> (any OAuthProviderClient)? { clients[name.lowercased()] }

    /// The names, for `/settings`.
    var names: [String] { clients.keys.sorted() }

    /// Clients for the configured providers. Apple's signs its client secret with the developer
    /// key when the server has one (and then keeps Apple's refresh token for its revocation).
    static func make(
        configuration: ServerConfiguration,
        keepsAppleRefreshTokens: Bool,
        http: ProviderHTTP = .live,
        fetcher: JWKSFetcher = .live,
        logger: Logger
    ) async throws -> OAuthProviders {
        var clients: [String: any OAuthProviderClient] = [:]
        let callback = configuration.externalURL + "/callback"
        for settings in configuration.externalProviders {
            let redirectURI = settings.redirectURI ?? callback
            switch settings.kind {
            case .github(let url):
                clients[settings.name] = GitHubProviderClient(
                    clientID: settings.clientID,
                    secret: settings.secret ?? "",
                    scopes: settings.scopes,
                    redirectURI: redirectURI,
                    webURL: url,
                    http: http,
                    logger: logger
                )
            case .openIDConnect(let issuer):
                let isGoogle = settings.name == "google"
                clients[settings.name] = OIDCProviderClient(
                    name: settings.name,
                    displayName: settings.displayName,
                    issuer: issuer,
                    alternateIssuers: isGoogle && issuer == ExternalProviderSettings.googleIssuer
                        ? IdentityProvider.google.issuers : [],
                    clientID: settings.clientID,
                    secret: .fixed(settings.secret ?? ""),
                    scopes: ["openid", "email", "profile"] + settings.scopes,
                    redirectURI: redirectURI,
                    metadata: ProviderMetadata(issuer: issuer, http: http, fetcher: fetcher, logger: logger),
                    vouching: isGoogle ? .google : .verifiedClaim,
                    responseMode: nil,
                    usesPKCE: true,
                    keepsAppleRefreshToken: false,
                    http: http,
                    leeway: configuration.idTokenLeeway,
                    logger: logger
                )
            case .apple:
                let base = configuration.appleBaseURL
                let secret: OIDCProviderClient.Secret
                if let account = configuration.appleAccount {
                    secret = .apple(try await AppleClientSecret(settings: account))
                } else {
                    secret = .fixed(settings.secret ?? "")
                }
                let issuer = "https://appleid.apple.com"
                let document = ProviderMetadata.Document(
                    issuer: issuer,
                    authorizationEndpoint: base.appendingPathComponent("auth/authorize"),
                    tokenEndpoint: base.appendingPathComponent("auth/token"),
                    jwksURI: base.appendingPathComponent("auth/keys"),
                    tokenEndpointAuthMethods: ["client_secret_post"],
                    issParameterSupported: false
                )
                clients[settings.name] = OIDCProviderClient(
                    name: settings.name,
                    displayName: "Apple",
                    issuer: issuer,
                    alternateIssuers: IdentityProvider.apple.issuers,
                    clientID: settings.clientID,
                    secret: secret,
                    scopes: ["name", "email"] + settings.scopes,
                    redirectURI: redirectURI,
                    metadata: ProviderMetadata(
                        issuer: issuer,
                        fixed: document,
                        http: http,
                        fetcher: fetcher,
                        logger: logger
                    ),
                    vouching: .apple,
                    responseMode: "form_post",
                    // Apple documents no PKCE for its web flow; its nonce binds the ID token.
                    usesPKCE: false,
                    keepsAppleRefreshToken: keepsAppleRefreshTokens && configuration.appleAccount != nil,
                    http: http,
                    leeway: configuration.idTokenLeeway,
                    logger: logger
                )
            }
        }
        return OAuthProviders(clients: clients)
    }
}
