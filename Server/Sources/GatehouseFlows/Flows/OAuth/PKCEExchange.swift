import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /token?grant_type=pkce {auth_code, code_verifier}`: the app that started a flow with a
/// PKCE challenge turns the flow's `auth_code` (from `/callback` or an e-mailed link's
/// `GET /verify`) into a session, once, within the code's 10 minutes, by proving it holds the
/// verifier. A wrong verifier leaves the code alone (the right app may still come); the exchange
/// deletes the flow in the transaction that opens the session, so of two racing exchanges one
/// wins and the other finds nothing.
///
/// Answers, as GoTrue: 404 `flow_state_not_found` (unknown, used, or not issued yet), 422
/// `flow_state_expired`, 400 `bad_code_verifier`, 400 `validation_failed` (a field missing).
package struct PKCEExchange: Sendable {
    let storage: any AuthStorage
    let sessions: SessionIssuer
    let sealing: ProviderTokenSealing
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// How long an issued `auth_code` works (RFC 6749 §4.1.2 advises at most ten minutes).
    static let codeLifetime: TimeInterval = 600

    /// A fresh `auth_code`: 32 random bytes, base64url (stored as its SHA-256).
    static func newAuthorizationCode() -> String { Base64URL.encode(SecureRandom.bytes(32)) }

    static let notFound = APIError(
        .notFound,
        .flowStateNotFound,
        "invalid flow state, no valid flow state found"
    )

    /// Exchanges a flow's code for a session (`grant_type=pkce`), counted as a sign-in.
    package func callAsFunction(_ body: PKCEGrantRequest, device: String?, ip: String) async throws -> WireSession {
        try await AuthMetrics.countingSignIn(.pkce) { try await exchange(body, device: device, ip: ip) }
    }

    private func exchange(_ body: PKCEGrantRequest, device: String?, ip: String) async throws -> WireSession {
        let now = now()
        guard !body.authCode.isEmpty, !body.codeVerifier.isEmpty, body.authCode.utf8.count <= 512,
            body.codeVerifier.utf8.count <= 512
        else {
            throw APIError.validation("invalid request: both auth code and code verifier should be non-empty")
        }
        let hash = Hex.sha256(body.authCode)
        guard let flow = try await storage.read({ try await $0.flowState(authCodeHash: hash) }), flow.userID != nil
        else { throw Self.notFound }
        guard flow.expiresAt > now else {
            throw APIError(.unprocessableContent, .flowStateExpired, "invalid flow state, flow state has expired")
        }
        guard let challenge = flow.codeChallenge,
            let method = flow.codeChallengeMethod.flatMap(PKCEChallenge.Method.init),
            PKCEChallenge(challenge: challenge, method: method).isMatched(by: body.codeVerifier)
        else {
            throw APIError(
                .badRequest,
                .badCodeVerifier,
                "code challenge does not match previously saved code verifier"
            )
        }
        let provider = flow.provider == .email ? nil : flow.provider
        let grant = try await storage.transaction { tx in
            guard try await tx.deleteFlowState(id: flow.id), let userID = flow.userID else { throw Self.notFound }
            guard var user = try await tx.user(id: userID) else { throw Self.notFound }
            if user.isBanned(at: now) { throw APIError.userBanned }
            user.lastSignInAt = now
            user.updatedAt = now
            try await tx.updateUser(user)
            try await audit.record(.login, actor: user.id, ip: ip, detail: "pkce:\(flow.provider)", in: tx)
            return try await sessions.open(
                for: user,
                method: flow.authenticationMethod,
                provider: provider,
                device: device,
                ip: ip,
                in: tx,
                at: now
            )
        }
        var session = try await sessions.answer(grant, now: now)
        let tokens = sealing.open(flow.sealedProviderTokens, flowID: flow.id)
        session.providerToken = tokens.access
        session.providerRefreshToken = tokens.refresh
        return session
    }
}
