package import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `GET /authorize?provider=…&redirect_to=…&scopes=…&code_challenge=…&code_challenge_method=…`
/// and, for a signed-in caller linking another provider, `GET /user/identities/authorize`:
/// starts a sign-in at the provider's page. A flow is stored (``FlowStateRecord``: the provider,
/// the allowed redirect target, the app's challenge, and the server's own PKCE verifier and
/// OpenID Connect nonce for the provider), and the browser is sent to the provider with a random
/// `state` that names it, stored hashed, for 10 minutes and one callback.
///
/// A `redirect_to` outside the allow list lands on the site URL (``RedirectPolicy``; a loopback
/// address on any port when the list names it, RFC 8252 §7.3). Without a challenge the flow is
/// implicit: the callback puts the session in the redirect's fragment.
///
/// Linking (``SensitiveAction/linkIdentity``) is authorized here, by the table: AAL2 from a user
/// with a verified factor, and a sign-in within 10 minutes or a reauthentication code (sent as
/// `reauthentication_nonce`); the flow remembers the session, which must still be live (and at
/// the same assurance) when the callback links the identity.
package struct OAuthAuthorization: Sendable {
    let storage: any AuthStorage
    let providers: OAuthProviders
    let redirects: RedirectPolicy
    let sensitive: SensitiveActionGuard
    let now: @Sendable () -> Date

    /// How long a flow waits for the provider's callback.
    static let lifetime: TimeInterval = 600

    /// The query parameters an app may pass through to the provider (GoTrue passes the query on;
    /// here only these, so no parameter of the server's own can be overridden).
    static let passedThrough: Set<String> = [
        "prompt", "login_hint", "hd", "access_type", "max_age", "ui_locales", "display", "domain_hint", "allow_signup",
    ]

    /// What the app asked for.
    package struct Request: Sendable {
        var provider: String?
        var redirectTo: String?
        var scopes: String?
        var codeChallenge: String?
        var codeChallengeMethod: String?
        var extra: [(String, String)]

        package init(query: [(String, String)]) {
            var values: [String: String] = [:]
            var extra: [(String, String)] = []
            for (name, value) in query {
                if values[name] == nil { values[name] = value }
                if OAuthAuthorization.passedThrough.contains(name), !extra.contains(where: { $0.0 == name }),
                    value.utf8.count <= 256
                {
                    extra.append((name, value))
                }
            }
            provider = values["provider"]
            redirectTo = values["redirect_to"]
            scopes = values["scopes"]
            codeChallenge = values["code_challenge"]
            codeChallengeMethod = values["code_challenge_method"]
            self.extra = extra
        }
    }

    /// The provider's authorization URL for a new flow.
    ///
    /// - Parameters:
    ///   - linking: The signed-in caller linking the provider to its account, if any.
    ///   - reauthenticationNonce: The caller's reauthentication code, when it sends one.
    /// - Throws: 400 `validation_failed` (unknown provider, malformed challenge or scopes), 503
    ///   `provider_unavailable` (the provider's metadata), and the table's answers when linking.
    package func callAsFunction(
        _ request: Request,
        linking: Caller? = nil,
        reauthenticationNonce: String? = nil,
        ip: String
    ) async throws -> URL {
        let now = now()
        guard let name = request.provider, !name.isEmpty else {
            throw APIError.validation("Unsupported provider: missing provider parameter")
        }
        guard let client = providers.client(name) else {
            throw APIError.validation("Unsupported provider: provider \(name.prefix(64)) could not be found")
        }
        let challenge = try PKCEChallenge.parse(challenge: request.codeChallenge, method: request.codeChallengeMethod)
        let scopes = try Self.scopes(request.scopes)
        if let linking {
            _ = try await sensitive.authorize(
                .linkIdentity,
                linking,
                evidence: .init(nonce: reauthenticationNonce),
                ip: ip
            )
        }
        let state = Base64URL.encode(SecureRandom.bytes(32))
        let nonce = client.usesNonce ? Base64URL.encode(SecureRandom.bytes(32)) : nil
        let verifier = client.usesPKCE ? PKCEChallenge.newVerifier() : nil
        // The provider's address first: a provider that cannot be reached leaves no flow behind.
        let url = try await client.authorizationURL(
            OAuthAuthorizationRequest(
                state: state,
                nonce: nonce,
                challenge: verifier.map(PKCEChallenge.s256),
                scopes: scopes,
                extra: request.extra
            )
        )
        let flow = FlowStateRecord(
            stateHash: Hex.sha256(state),
            provider: AuthProvider(rawValue: client.name),
            authenticationMethod: .oauth,
            redirectTo: redirects.target(request.redirectTo),
            codeChallenge: challenge?.challenge,
            codeChallengeMethod: challenge?.method.rawValue,
            providerVerifier: verifier,
            nonce: nonce,
            linkingUserID: linking?.user.id,
            linkingSessionID: linking?.session.id,
            createdAt: now,
            expiresAt: now.addingTimeInterval(Self.lifetime)
        )
        try await storage.autocommit { tx in try await tx.insertFlowState(flow) }
        return url
    }

    /// The app's `scopes` (space- or comma-separated), each an RFC 6749 §3.3 scope token.
    static func scopes(_ text: String?) throws -> [String] {
        guard let text, !text.isEmpty else { return [] }
        guard text.utf8.count <= 1024 else { throw APIError.validation("scopes is too long (at most 1024 bytes)") }
        let scopes = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        for scope in scopes
        where !scope.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }) {
            throw APIError.validation("scopes holds a character a scope cannot have")
        }
        return scopes
    }
}
