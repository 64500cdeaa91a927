import Foundation
import GatehouseStorage

/// A provider whose page signs people in through the browser (`GET /authorize` → the provider →
/// `/callback`), as the server talks to it: an OpenID Connect provider (``OIDCProviderClient``:
/// any issuer, Google, Apple) or GitHub (``GitHubProviderClient``).
protocol OAuthProviderClient: Sendable {
    /// The name apps ask for (`provider=github`), the identity's provider.
    var name: String { get }
    /// The name people know ("GitHub").
    var displayName: String { get }
    /// Whether the server sends the provider a PKCE challenge of its own (RFC 7636), binding the
    /// provider's code to the flow that asked for it.
    var usesPKCE: Bool { get }
    /// Whether the server sends an OpenID Connect nonce, which the ID token must carry back.
    var usesNonce: Bool { get }

    /// The provider's authorization URL for a flow.
    func authorizationURL(_ request: OAuthAuthorizationRequest) async throws -> URL

    /// The issuer a callback's `iss` parameter must name (RFC 9207), and whether the provider
    /// promises to send it (its metadata's `authorization_response_iss_parameter_supported`);
    /// `nil` when the provider has no issuer to compare with.
    func callbackIssuer() async throws -> (issuer: String, required: Bool)?

    /// Exchanges the provider's `code` and reads who signed in.
    func signIn(_ callback: OAuthProviderCallback, now: Date) async throws -> OAuthProviderSignIn
}

/// What the server asks the provider for, for one flow.
struct OAuthAuthorizationRequest: Sendable {
    /// The flow's `state` (random, stored hashed).
    var state: String
    /// The OpenID Connect nonce, when the provider uses one.
    var nonce: String?
    /// The S256 challenge of the server's own verifier, when the provider uses PKCE.
    var challenge: String?
    /// Scopes the app asked for besides the provider's own.
    var scopes: [String]
    /// Parameters the app may pass through (`prompt`, `login_hint`, …; ``OAuthAuthorization``).
    var extra: [(String, String)]
}

/// The provider's answer at `/callback`, with what the flow kept for it.
struct OAuthProviderCallback: Sendable {
    var code: String
    /// The server's PKCE verifier of the flow.
    var verifier: String?
    /// The nonce of the flow.
    var nonce: String?
    /// Apple's `user` field (a JSON object with the name, on the first authorization only).
    var appleUser: String?
}

/// Who signed in at the provider, and the provider's tokens.
struct OAuthProviderSignIn: Sendable {
    var identity: ProviderIdentity
    /// A name the browser sent beside the code (Apple's first authorization): a client's claim,
    /// which fills empty `user_metadata` fields only (``ProviderName``).
    var name: ProviderName?
    var accessToken: String?
    var refreshToken: String?
    /// Apple's refresh token, with the app it was issued to, kept sealed for its revocation when
    /// the account is deleted (``AppleTokenWriter``).
    var appleRevocable: (clientID: String, refreshToken: String)?
}

extension OAuthProviderClient {
    /// `base` with `parameters` appended to its query, each name and value form-encoded.
    static func url(_ base: URL, adding parameters: [(String, String)]) -> URL {
        var text = base.absoluteString
        let query = AppleFormPoster.formEncoded(parameters)
        text += (base.query == nil ? "?" : "&") + query
        return URL(string: text) ?? base
    }
}
