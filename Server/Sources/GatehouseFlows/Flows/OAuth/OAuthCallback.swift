import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Logging

/// `GET /callback` and `POST /callback` (the provider's form, `response_mode=form_post`, as
/// Apple's web sign-in answers): the provider sends the browser back with a `code` and the
/// flow's `state`. The callback always answers with a redirect:
///
/// 1. the `state` claims its flow, once (``FlowStateWriter/claimFlowState(stateHash:)``); an
///    unknown or used state lands on the site URL with `bad_oauth_state`, an expired flow on its
///    target with `flow_state_expired`;
/// 2. an `error` from the provider (the person declined: `access_denied`) goes to the app as
///    `error`, `error_code` and `error_description`;
/// 3. a provider that says which issuer answered (RFC 9207 `iss`) must name the flow's, and one
///    that promises to say it must (a mix-up between providers is refused);
/// 4. the code is exchanged with the flow's PKCE verifier; the ID token must carry the flow's
///    nonce (``OIDCProviderClient``), or the user is read from GitHub's API;
/// 5. the account is chosen by the linking rules of every provider sign-in (``IdentityLinking``),
///    or, for a flow started by `GET /user/identities/authorize`, the identity is linked to the
///    signed-in user whose session, still live and at the assurance the table asks, started it;
/// 6. the browser goes to the flow's target with `?code=` (PKCE: the app exchanges it with its
///    verifier) or with the session in the fragment (implicit).
package struct OAuthCallback: Sendable {
    let storage: any AuthStorage
    let providers: OAuthProviders
    let linking: IdentityLinking
    let sessions: SessionIssuer
    let sensitive: SensitiveActionGuard
    let lifetime: SessionLifetime
    let sealing: ProviderTokenSealing
    /// Keeps Apple's refresh token for its revocation, with the developer key.
    let apple: AppleAccountClient?
    let audit: AuditLog
    /// Where an answer goes when no flow names a target.
    let siteURL: String
    let logger: Logger
    let now: @Sendable () -> Date

    /// What the provider sent back (query or form).
    package struct Parameters: Sendable {
        var state: String?
        var code: String?
        var error: String?
        var errorDescription: String?
        /// RFC 9207's `iss`.
        var issuer: String?
        /// Apple's `user` (the name, on the first authorization).
        var appleUser: String?

        package init(_ fields: [(String, String)]) {
            var values: [String: String] = [:]
            for (name, value) in fields where values[name] == nil { values[name] = value }
            state = values["state"]
            code = values["code"]
            error = values["error"]
            errorDescription = values["error_description"]
            issuer = values["iss"]
            appleUser = values["user"]
        }
    }

    /// Where the browser goes next: always a redirect target.
    package func callAsFunction(_ parameters: Parameters, device: String?, ip: String) async -> String {
        guard let state = parameters.state, !state.isEmpty, state.utf8.count <= 512 else {
            return OAuthRedirect.error(
                APIError(.badRequest, .badOAuthCallback, "OAuth state parameter missing"),
                to: siteURL
            )
        }
        let flow: FlowStateRecord?
        do {
            flow = try await storage.autocommit { tx in try await tx.claimFlowState(stateHash: Hex.sha256(state)) }
        } catch {
            logger.error("A sign-in flow could not be read", metadata: ["error": "\(error)"])
            return OAuthRedirect.error(APIError.unexpected, to: siteURL)
        }
        guard let flow else {
            return OAuthRedirect.error(
                APIError(
                    .badRequest,
                    .badOAuthState,
                    "OAuth state not found, used already or expired: start the sign-in again."
                ),
                to: siteURL
            )
        }
        do {
            let target = try await complete(flow, parameters, device: device, ip: ip)
            AuthMetrics.signIn(.oauth, error: nil)
            return target
        } catch let error as APIError {
            AuthMetrics.signIn(.oauth, error: error)
            return OAuthRedirect.error(error, to: flow.redirectTo)
        } catch {
            AuthMetrics.signIn(.oauth, error: error)
            logger.error("A provider sign-in failed", metadata: ["provider": "\(flow.provider)", "error": "\(error)"])
            return OAuthRedirect.error(APIError.unexpected, to: flow.redirectTo)
        }
    }

    private enum Finish: Sendable {
        case code(String, IdentityLinking.Outcome)
        case session(SessionGrant, IdentityLinking.Outcome)
    }

    private func complete(
        _ flow: FlowStateRecord,
        _ parameters: Parameters,
        device: String?,
        ip: String
    ) async throws -> String {
        let now = now()
        guard flow.expiresAt > now else {
            throw APIError(
                .badRequest,
                .flowStateExpired,
                "The sign-in took longer than \(Int(OAuthAuthorization.lifetime / 60)) minutes: start it again."
            )
        }
        if let error = parameters.error {
            return Self.providerError(error, parameters.errorDescription, to: flow.redirectTo)
        }
        guard let client = providers.client(flow.provider.rawValue) else {
            throw APIError(
                .badRequest,
                .oauthProviderNotSupported,
                "The provider \(flow.provider) is no longer enabled."
            )
        }
        if let expected = try await client.callbackIssuer() {
            if let issuer = parameters.issuer {
                guard issuer == expected.issuer else {
                    throw APIError(
                        .badRequest,
                        .badOAuthCallback,
                        "The answer comes from another issuer than \(client.displayName) (iss): sign in again."
                    )
                }
            } else if expected.required {
                throw APIError(
                    .badRequest,
                    .badOAuthCallback,
                    "\(client.displayName) promises to name itself in its answer (iss), and this one does not."
                )
            }
        }
        guard let code = parameters.code, !code.isEmpty, code.utf8.count <= 2048 else {
            throw APIError(.badRequest, .badOAuthCallback, "OAuth callback with missing authorization code")
        }
        let signIn = try await client.signIn(
            OAuthProviderCallback(
                code: code,
                verifier: flow.providerVerifier,
                nonce: flow.nonce,
                appleUser: parameters.appleUser
            ),
            now: now
        )
        let identity = signIn.identity
        var linkingPermit: SensitiveActionPermit?
        if let linkingUserID = flow.linkingUserID {
            linkingPermit = try await self.linkingPermit(user: linkingUserID, session: flow.linkingSessionID, now: now)
        }
        let permit = linkingPermit
        let sealed = try sealing.seal(access: signIn.accessToken, refresh: signIn.refreshToken, flowID: flow.id)
        let (apple, sessions, linking, audit) = (self.apple, self.sessions, self.linking, self.audit)
        let finish: Finish = try await storage.transaction { tx in
            var linkingUser: UserRecord?
            if let id = flow.linkingUserID {
                guard let user = try await tx.user(id: id) else { throw Self.linkingSessionEnded }
                linkingUser = user
            }
            let outcome = try await linking.resolve(identity, linkingTo: linkingUser, in: tx, now: now)
            var user = outcome.user
            if user.isBanned(at: now) { throw APIError(.forbidden, .userBanned, "User is banned") }
            if let name = signIn.name, name.fill(&user.userMetadata) {
                user.updatedAt = now
                try await tx.updateUser(user)
            }
            if let revocable = signIn.appleRevocable, let apple,
                let stored = try await tx.identity(provider: identity.provider, subject: identity.subject)
            {
                try await tx.storeAppleToken(
                    identityID: stored.id,
                    clientID: revocable.clientID,
                    sealedToken: try apple.sealing.seal(revocable.refreshToken, identityID: stored.id),
                    at: now
                )
            }
            try await audit.record(.login, actor: user.id, ip: ip, detail: identity.provider.rawValue, in: tx)
            // The owner is told of the new way in, in this transaction (the mail outbox).
            _ = try await linking.announce(
                outcome,
                provider: identity,
                permit: permit,
                linkingUserID: flow.linkingUserID,
                in: tx,
                now: now
            )
            if flow.isPKCE {
                let code = PKCEExchange.newAuthorizationCode()
                var issued = flow
                issued.userID = user.id
                issued.authCodeHash = Hex.sha256(code)
                issued.sealedProviderTokens = sealed
                issued.expiresAt = now.addingTimeInterval(PKCEExchange.codeLifetime)
                try await tx.updateFlowState(issued)
                return .code(code, outcome)
            }
            _ = try await tx.deleteFlowState(id: flow.id)
            let grant = try await sessions.open(
                for: user,
                method: .oauth,
                provider: identity.provider,
                device: device,
                ip: ip,
                in: tx,
                at: now
            )
            return .session(grant, outcome)
        }
        switch finish {
        case .code(let code, let outcome):
            if outcome.linkedTo != nil { linking.wakeSender() }
            return OAuthRedirect.code(code, to: flow.redirectTo)
        case .session(let grant, let outcome):
            if outcome.linkedTo != nil { linking.wakeSender() }
            var session = try await sessions.answer(grant, now: now)
            session.providerToken = signIn.accessToken
            session.providerRefreshToken = signIn.refreshToken
            return OAuthRedirect.tokens(session, to: flow.redirectTo)
        }
    }

    /// The table's permit to link, for the session that asked (``SensitiveActionGuard/continuing(_:session:user:)``):
    /// it must still be live, its user not banned, at AAL2 when the user has a verified factor.
    private func linkingPermit(
        user userID: UUID,
        session sessionID: UUID?,
        now: Date
    ) async throws
        -> SensitiveActionPermit
    {
        guard let sessionID,
            let (session, user) = try await storage.read({ try await $0.sessionWithUser(id: sessionID) }),
            session.userID == userID, !lifetime.hasEnded(session, at: now), !user.isBanned(at: now)
        else { throw Self.linkingSessionEnded }
        return try sensitive.continuing(.linkIdentity, session: session, user: user.withoutLapsedFactors(at: now))
    }

    static let linkingSessionEnded = APIError(
        .forbidden,
        .sessionNotFound,
        "The session that asked to link this provider has ended: sign in and link it again."
    )

    /// The provider's own `error` (RFC 6749 §4.1.2.1), passed on as `error` and `error_code` when
    /// it is a plain token (`access_denied` when the person declined), with its description.
    static func providerError(_ error: String, _ description: String?, to target: String) -> String {
        let isToken =
            !error.isEmpty && error.utf8.count <= 64
            && error.utf8.allSatisfy { (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "_") }
        let code = isToken ? error : "server_error"
        var text = (description ?? "").prefix(500).filter { !$0.isASCII || ($0.asciiValue ?? 0) >= 0x20 }
        if text.isEmpty {
            text =
                code == "access_denied"
                ? "The sign-in was cancelled at the provider." : "The provider refused the sign-in."
        }
        return OAuthRedirect.error(oauth: code, code: code, description: String(text), to: target)
    }
}
