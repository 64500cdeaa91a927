import Foundation
import GatehouseServerSupport
import Hummingbird
import Synchronization

/// An OpenID Connect provider on loopback for the tests (issue 36): its own RSA keys (a
/// ``FakeProvider``'s JWKS), a discovery document, a consent page with Allow and Cancel buttons
/// (``FakeConsent``), and a token endpoint that checks the client's secret (Basic or in the form),
/// the redirect URI and the PKCE verifier before it exchanges a code once, answering with an ID
/// token that carries the request's nonce. Knobs let a test bend what it answers (another
/// audience, another nonce, an `iss` in the callback).
final class FakeOIDCProvider: Sendable {
    /// What the provider does, changeable by a test.
    struct Behaviour: Sendable {
        /// Who signs in.
        var profile = FakeProfile(subject: "oidc-user-1", email: "ada@example.com")
        /// `authorization_response_iss_parameter_supported` in the discovery document.
        var advertisesIssParameter = false
        /// The `iss` the callback carries (RFC 9207), `nil` for none.
        var callbackIssuer: String?
        /// Claims of the ID token to replace (`NSNull()` removes one), as strings.
        var idTokenOverrides: [String: String] = [:]
    }

    let clientID: String
    let clientSecret: String
    let provider: FakeProvider
    private let behaviour: Locked<Behaviour>
    let consent: FakeConsent

    /// The issuer: its own loopback address.
    var issuer: String { provider.baseURL.absoluteString }

    /// Starts a provider for the client `clientID`, signing its tokens at `clock`'s time.
    static func start(
        clientID: String = "oidc-client",
        clientSecret: String = "oidc-secret",
        clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> FakeOIDCProvider {
        try await FakeOIDCProvider(clientID: clientID, clientSecret: clientSecret, clock: clock)
    }

    private init(clientID: String, clientSecret: String, clock: @escaping @Sendable () -> Date) async throws {
        self.clientID = clientID
        self.clientSecret = clientSecret
        let behaviour = Locked(Behaviour())
        self.behaviour = behaviour
        let consent = FakeConsent()
        self.consent = consent
        let box = Locked<FakeProvider?>(nil)
        provider = try await FakeProvider.start(issuer: "set-below", clientID: clientID) { router in
            router.get(".well-known/openid-configuration") { _, _ -> Response in
                let base = box.withLock { $0 }!.baseURL.absoluteString
                return FakeConsent.json(
                    200,
                    [
                        "issuer": base, "authorization_endpoint": base + "/authorize",
                        "token_endpoint": base + "/token", "jwks_uri": base + "/keys",
                        "response_types_supported": ["code"], "subject_types_supported": ["public"],
                        "id_token_signing_alg_values_supported": ["RS256"],
                        "code_challenge_methods_supported": ["S256", "plain"],
                        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
                        "authorization_response_iss_parameter_supported": behaviour.withLock {
                            $0.advertisesIssParameter
                        },
                    ]
                )
            }
            router.get("authorize") { request, _ -> Response in
                let query = FakeConsent.query(request)
                guard query["client_id"] == clientID, query["response_type"] == "code",
                    let redirectURI = query["redirect_uri"]
                else { return FakeConsent.json(400, ["error": "invalid_request"]) }
                let authorization = FakeConsent.Authorization(
                    clientID: clientID,
                    redirectURI: redirectURI,
                    state: query["state"],
                    nonce: query["nonce"],
                    challenge: query["code_challenge"],
                    challengeMethod: query["code_challenge_method"],
                    scope: query["scope"]
                )
                let profile = behaviour.withLock { $0.profile }
                return consent.page(for: authorization, provider: "Fake OIDC", profile: profile, action: "/consent")
            }
            router.post("consent") { request, _ -> Response in
                let form = try await FakeConsent.form(request)
                guard let authorization = consent.take(form["request"]) else {
                    return FakeConsent.json(400, ["error": "unknown request"])
                }
                let current = behaviour.withLock { $0 }
                var fields: [(String, String)] = []
                if form["decision"] == "allow" {
                    fields.append(
                        ("code", consent.issue(.init(authorization: authorization, profile: current.profile)))
                    )
                } else {
                    fields += [("error", "access_denied"), ("error_description", "The user cancelled the sign-in")]
                }
                if let state = authorization.state { fields.append(("state", state)) }
                if let issuer = current.callbackIssuer { fields.append(("iss", issuer)) }
                return FakeConsent.redirect(FakeConsent.url(authorization.redirectURI, adding: fields))
            }
            router.post("token") { request, _ -> Response in
                consent.count("token")
                let form = try await FakeConsent.form(request)
                let client = FakeConsent.clientCredentials(request, form)
                guard client.id == clientID, client.secret == clientSecret else {
                    return FakeConsent.json(401, ["error": "invalid_client"])
                }
                guard form["grant_type"] == "authorization_code", let grant = consent.redeem(form["code"]),
                    grant.authorization.redirectURI == form["redirect_uri"],
                    FakeConsent.verifies(
                        form["code_verifier"],
                        grant.authorization.challenge,
                        method: grant.authorization.challengeMethod
                    )
                else { return FakeConsent.json(400, ["error": "invalid_grant"]) }
                let fake = box.withLock { $0 }!
                let overrides = behaviour.withLock { $0.idTokenOverrides }
                var claims: [String: Any] = ["iss": fake.baseURL.absoluteString, "aud": clientID]
                if let name = grant.profile.name { claims["name"] = name }
                if let nonce = grant.authorization.nonce { claims["nonce"] = nonce }
                for (key, value) in overrides { claims[key] = value }
                let idToken = try fake.token(
                    now: clock(),
                    subject: grant.profile.subject,
                    rawNonce: nil,
                    email: grant.profile.email,
                    emailVerified: grant.profile.emailVerified,
                    claims: claims
                )
                return FakeConsent.json(
                    200,
                    [
                        "access_token": "oidc-access-\(UUID().uuidString)", "token_type": "Bearer",
                        "expires_in": 3600, "refresh_token": "oidc-refresh-\(UUID().uuidString)", "id_token": idToken,
                    ]
                )
            }
        }
        box.withLock { $0 = provider }
    }

    /// Changes what the provider does.
    func behave(_ change: (inout Behaviour) -> Void) { behaviour.withLock { change(&$0) } }

    func stop() async { await provider.stop() }
}
