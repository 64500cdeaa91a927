import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import JWTKit

/// `POST /token?grant_type=id_token`: signs in (or links) with a verified Apple or Google ID
/// token (issue 5, security.md section 7). Which account the token lands in is decided by the
/// linking rules the sign-in through a provider's page shares (``IdentityLinking``: the identity
/// key is provider and subject; an address links only when the provider vouches for it). Besides:
/// - linking (``SensitiveAction/linkIdentity``) needs what ``SensitiveActionPolicy`` says: a
///   sign-in within 10 minutes or a reauthentication code (sent as `reauthentication_nonce`,
///   since `nonce` is the ID token's), and AAL2 from a user with a verified factor; a guest with
///   no other way in needs neither. A confirmed address is told whenever a provider is linked to
///   its account, by the caller or by a vouched address;
/// - the nonce is consumed in the same transaction, so it works once and only on success;
/// - a name sent beside the token (Apple's first authorization) fills only empty
///   `user_metadata` fields (``ProviderName``);
/// - Apple's `authorization_code`, when the server has the developer key, is exchanged for
///   Apple's refresh token (``AppleTokenExchange``) before anything is stored, and the token is
///   kept sealed on the identity for its revocation at deletion; without the key it is ignored.
///   A sign-in without the code is answered normally, and the log says once per client id that
///   Apple's tokens cannot be revoked for it (``MissingCodeNotice``).
package struct IDTokenSignIn: Sendable {
    let storage: any AuthStorage
    /// ID-token verifiers of the enabled providers.
    let verifiers: [IdentityProvider: IDTokenVerifier]
    /// Apple's code exchange, when configured.
    let apple: AppleAccountClient?
    /// Verifies the bearer of a linking request (only then: clients may send an API key always).
    let authenticator: Authenticator
    let sensitive: SensitiveActionGuard
    let sessions: SessionIssuer
    /// Which account the token lands in, and who is told.
    let linking: IdentityLinking
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// Signs in with `body`'s ID token, or links it to the caller that `bearer` names when
    /// `link_identity` is set.
    package func callAsFunction(
        _ body: IDTokenGrantRequest,
        bearer: String?,
        reauthenticationNonce: String?,
        ip: String
    ) async throws -> WireSession {
        try await AuthMetrics.countingSignIn(.idToken) {
            try await signIn(body, bearer: bearer, reauthenticationNonce: reauthenticationNonce, ip: ip)
        }
    }

    private func signIn(
        _ body: IDTokenGrantRequest,
        bearer: String?,
        reauthenticationNonce: String?,
        ip: String
    ) async throws -> WireSession {
        let now = now()
        var caller: Caller?
        var authorized: SensitiveActionPermit?
        if body.linkIdentity == true {
            guard let bearer else { throw APIError.noAuthorization }
            let linking = try await authenticator.caller(bearer: bearer)
            authorized = try await sensitive.authorize(
                .linkIdentity,
                linking,
                evidence: .init(nonce: reauthenticationNonce),
                ip: ip
            )
            caller = linking
        }
        // Spelled exactly, as GoTrue matches it (and as the API document's enum says).
        guard let provider = IdentityProvider(rawValue: body.provider) else {
            throw APIError(
                .badRequest,
                .providerDisabled,
                "Unsupported provider “\(body.provider)”: use apple or google."
            )
        }
        guard let verifier = verifiers[provider] else {
            throw APIError(
                .badRequest,
                .providerDisabled,
                "Sign in with \(provider.displayName) is not enabled on this server "
                    + "(set GATEHOUSE_\(provider.rawValue.uppercased())_CLIENT_IDS)."
            )
        }
        let name = try ProviderName.from(body)
        let token = try await verifier.verify(body.idToken, rawNonce: body.nonce, now: now)
        let appleToken = try await exchangeAppleCode(body.authorizationCode, for: token, now: now)
        let apple = self.apple
        let linkingUser = caller?.user
        let identity = token.identity
        let permit = authorized
        let (grant, outcome) = try await storage.transaction { tx in
            guard
                try await tx.consumeNonce(
                    provider: provider.name,
                    hash: token.nonceHash,
                    expiresAt: token.expiresAt,
                    now: now
                )
            else {
                throw APIError(
                    .badRequest,
                    .idTokenNonceInvalid,
                    "This nonce was used already: make a new nonce for every sign-in."
                )
            }
            let outcome = try await linking.resolve(identity, linkingTo: linkingUser, in: tx, now: now)
            var user = outcome.user
            if user.isBanned(at: now) { throw APIError.userBanned }
            if let name, name.fill(&user.userMetadata) {
                user.updatedAt = now
                try await tx.updateUser(user)
            }
            if let appleToken, let apple,
                let identity = try await tx.identity(provider: provider.name, subject: token.subject)
            {
                try await tx.storeAppleToken(
                    identityID: identity.id,
                    clientID: appleToken.clientID,
                    sealedToken: try apple.sealing.seal(appleToken.refreshToken, identityID: identity.id),
                    at: now
                )
            }
            try await audit.record(.login, actor: user.id, ip: ip, detail: provider.rawValue, in: tx)
            let grant = try await sessions.open(
                for: user,
                method: .oauth,
                provider: provider.name,
                device: body.device,
                ip: ip,
                in: tx,
                at: now
            )
            // The owner is told of the new way in, in this transaction (the mail outbox).
            _ = try await linking.announce(
                outcome,
                provider: identity,
                permit: permit,
                linkingUserID: linkingUser?.id,
                in: tx,
                now: now
            )
            return (grant, outcome)
        }
        if outcome.linkedTo != nil { linking.wakeSender() }
        return try await sessions.answer(grant, now: now)
    }

    /// Apple's refresh token for the request's authorization code, with the app it belongs to
    /// (the token's audience); `nil` for Google, without a code, or without the developer key.
    private func exchangeAppleCode(
        _ code: String?,
        for token: VerifiedIDToken,
        now: Date
    ) async throws -> (clientID: String, refreshToken: String)? {
        guard token.provider == .apple, let apple, let clientID = token.claims.audience?.value.first else { return nil }
        guard let code, !code.isEmpty else {
            apple.missingCode.note(clientID: clientID)
            return nil
        }
        let refreshToken = try await apple.exchange.refreshToken(
            code: code,
            clientID: clientID,
            subject: token.subject,
            now: now
        )
        return (clientID, refreshToken)
    }
}
