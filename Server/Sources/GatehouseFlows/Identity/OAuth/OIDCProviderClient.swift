import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import JWTKit
import Logging

/// An OpenID Connect provider (Core 1.0, the authorization code flow): any issuer an operator
/// names, Google, and Apple on the web. The server sends a nonce and, except to Apple, a PKCE
/// challenge of its own; it exchanges the code at the token endpoint (with its client secret) and
/// believes the ID token only after its checks (``IDTokenCheck``: the provider's published key,
/// `iss`, `aud` this client, time) and the nonce this flow sent. The address links only as
/// ``EmailVouching`` says.
struct OIDCProviderClient: OAuthProviderClient {
    /// How the server proves itself at the token endpoint.
    enum Secret: Sendable {
        /// A client secret the provider issued (`client_secret_basic`, or `client_secret_post`
        /// when the provider supports only that).
        case fixed(String)
        /// Apple's: an ES256 JWT the server signs with the developer key for each exchange, posted.
        case apple(AppleClientSecret)
    }

    let name: String
    let displayName: String
    let issuer: String
    /// Other `iss` spellings of the same issuer (Google's `accounts.google.com`).
    let alternateIssuers: Set<String>
    let clientID: String
    let secret: Secret
    /// The provider's own scopes (`openid email profile`; Apple's `name email`) and the operator's.
    let scopes: [String]
    /// This server's `/callback`, as registered with the provider.
    let redirectURI: String
    let metadata: ProviderMetadata
    let vouching: EmailVouching
    /// `form_post` for Apple, whose answer with a name comes as a form.
    let responseMode: String?
    let usesPKCE: Bool
    var usesNonce: Bool { true }
    /// Whether Apple's refresh token is kept for its revocation at deletion (with the developer key).
    let keepsAppleRefreshToken: Bool
    let http: ProviderHTTP
    let leeway: TimeInterval
    let logger: Logger

    func authorizationURL(_ request: OAuthAuthorizationRequest) async throws -> URL {
        let document = try await metadata.current(displayName: displayName).document
        var parameters: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", Self.scopeList(scopes + request.scopes)), ("state", request.state),
        ]
        if let nonce = request.nonce { parameters.append(("nonce", nonce)) }
        if let challenge = request.challenge {
            parameters += [("code_challenge", challenge), ("code_challenge_method", "S256")]
        }
        if let responseMode { parameters.append(("response_mode", responseMode)) }
        parameters += request.extra
        return Self.url(document.authorizationEndpoint, adding: parameters)
    }

    func callbackIssuer() async throws -> (issuer: String, required: Bool)? {
        let document = try await metadata.current(displayName: displayName).document
        return (issuer, document.issParameterSupported == true)
    }

    func signIn(_ callback: OAuthProviderCallback, now: Date) async throws -> OAuthProviderSignIn {
        let loaded = try await metadata.current(now: now, displayName: displayName)
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", callback.code), ("redirect_uri", redirectURI),
        ]
        if let verifier = callback.verifier { form.append(("code_verifier", verifier)) }
        var headers: [(name: String, value: String)] = []
        switch secret {
        case .apple(let apple):
            form += [("client_id", clientID), ("client_secret", try await apple.make(clientID: clientID, now: now))]
        case .fixed(let secret):
            let methods = loaded.document.tokenEndpointAuthMethods ?? ["client_secret_basic"]
            if methods.contains("client_secret_basic") || !methods.contains("client_secret_post") {
                headers.append((name: "Authorization", value: Self.basic(clientID, secret)))
            } else {
                form += [("client_id", clientID), ("client_secret", secret)]
            }
        }
        let reply: ProviderHTTP.Reply
        do {
            reply = try await http.post(loaded.document.tokenEndpoint, form, headers: headers)
        } catch {
            logger.warning("A provider's token endpoint could not be reached", metadata: ["provider": "\(name)"])
            throw ProviderFailure.unavailable(displayName)
        }
        let tokens = try OAuthTokenReply.decode(reply, provider: displayName, logger: logger)
        guard let idToken = tokens.idToken else {
            throw ProviderFailure.unusableAnswer(displayName, "holds no ID token (is the openid scope allowed?)")
        }
        let check = IDTokenCheck(
            displayName: displayName,
            issuers: alternateIssuers.union([issuer]),
            audiences: [clientID],
            checksAuthorizedPresenter: true,
            keys: loaded.keys,
            leeway: leeway
        )
        let claims = try await check.claims(of: idToken, now: now)
        guard let expected = callback.nonce, let nonce = claims.nonce, ConstantTime.equal(nonce, expected) else {
            throw APIError(
                .badRequest,
                .idTokenNonceInvalid,
                "The \(displayName) ID token does not carry the nonce this sign-in sent: start the sign-in again."
            )
        }
        let email = claims.email.flatMap { try? EmailAddress.normalized($0) }
        let identity = ProviderIdentity(
            provider: AuthProvider(rawValue: name),
            displayName: displayName,
            subject: claims.subject ?? "",
            email: email,
            emailIsVouched: email != nil && vouching.vouches(for: claims),
            data: claims.identityData,
            fullName: claims.name
        )
        var appleRevocable: (clientID: String, refreshToken: String)?
        if keepsAppleRefreshToken, let refresh = tokens.refreshToken, !refresh.isEmpty {
            appleRevocable = (clientID, refresh)
        }
        return OAuthProviderSignIn(
            identity: identity,
            name: try ProviderName.fromAppleUser(callback.appleUser),
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            appleRevocable: appleRevocable
        )
    }

    /// Scopes once each, in order, space-separated.
    static func scopeList(_ scopes: [String]) -> String {
        var seen: Set<String> = []
        return scopes.filter { seen.insert($0).inserted }.joined(separator: " ")
    }

    /// `Basic base64(form(id):form(secret))` (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        let pair = AppleFormPoster.formEncoded([(id, secret)]).replacingOccurrences(of: "=", with: ":")
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }
}

/// When a provider's ID token vouches for its address (security.md ID-1): it is authoritative for
/// it and says it is verified.
enum EmailVouching: Sendable {
    /// `email_verified` is true: an issuer the operator configured and trusts to verify addresses.
    case verifiedClaim
    /// Google's rule (GG-3): verified, and a Gmail address or a Workspace domain (`hd`).
    case google
    /// Apple's rule (AP-4): verified.
    case apple

    func vouches(for claims: IDTokenClaims) -> Bool {
        switch self {
        case .verifiedClaim: claims.email != nil && claims.emailVerified?.value == true
        case .google: IdentityProvider.google.vouchesForEmail(in: claims)
        case .apple: IdentityProvider.apple.vouchesForEmail(in: claims)
        }
    }
}
