import Foundation
import GatehouseCore
import HTTPTypes

/// `POST /token?grant_type=refresh_token`: reads the session, applies ``RefreshDecision`` in one
/// transaction, and signs the answer after the commit.
///
/// A rotation is one conditional `UPDATE` of the counter; when it loses to a concurrent request
/// (another instance, or a queued request), the fresh row decides again.
struct RefreshRotation: Sendable {
    let storage: any AuthStorage
    let refreshTokens: RefreshTokenCodec
    let sessions: SessionIssuer
    let audit: AuditLog
    let rules: RefreshDecision.Rules
    let now: @Sendable () -> Date

    private enum Outcome: Sendable {
        case session(SessionGrant)
        case failure(APIError)
    }

    /// Rotates `token`, or answers with the current token, or ends the session.
    ///
    /// - Throws: ``APIError`` `refresh_token_not_found`, `refresh_token_already_used`,
    ///   `session_expired` or `user_banned`.
    func callAsFunction(_ token: String, ip: String) async throws -> WireSession {
        let now = now()
        guard let parsed = refreshTokens.parse(token) else {
            AuthMetrics.refresh(.notFound)
            throw Self.notFound
        }
        let (outcome, counted): (Outcome, AuthMetrics.RefreshOutcome) = try await storage.transaction { tx in
            let row = try await tx.sessionWithUser(id: parsed.sessionID)
            let decision = RefreshDecision.decide(
                row: row,
                presented: parsed.counter,
                isAuthentic: row.map { refreshTokens.isAuthentic(parsed, for: $0.0) } ?? false,
                now: now,
                rules: rules
            )
            guard let (session, user) = row else { return (.failure(Self.notFound), .notFound) }
            return try await apply(
                decision,
                session: session,
                user: user,
                presented: parsed.counter,
                ip: ip,
                in: tx,
                now: now
            )
        }
        AuthMetrics.refresh(counted)
        switch outcome {
        case .session(let grant): return try await sessions.answer(grant, now: now)
        case .failure(let error): throw error
        }
    }

    private func apply(
        _ decision: RefreshDecision,
        session: SessionRecord,
        user: UserRecord,
        presented: Int64,
        ip: String,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> (Outcome, AuthMetrics.RefreshOutcome) {
        switch decision {
        case .rotate:
            guard try await tx.rotateSession(id: session.id, expectedCounter: session.counter, at: now, from: ip) else {
                // Another request's UPDATE held the row lock and has committed: read its child.
                let current = try await tx.session(id: session.id)
                let again = RefreshDecision.afterLostRotation(current: current, presented: presented)
                guard case .answerCurrent = again, let current else { return (.failure(Self.notFound), .notFound) }
                return (
                    .session(SessionGrant(user: user, session: current, counter: current.counter)), .concurrentRotation
                )
            }
            var rotated = session
            rotated.counter += 1
            try await audit.record("token_refreshed", actor: user.id, ip: ip, in: tx)
            return (.session(SessionGrant(user: user, session: rotated, counter: rotated.counter)), .rotated)
        case .answerCurrent(let replay):
            let counted: AuthMetrics.RefreshOutcome =
                switch replay {
                case .directParent: .parentReplay
                case .withinReuseInterval: .reuseInsideInterval
                case .concurrentRotation: .concurrentRotation
                }
            return (.session(SessionGrant(user: user, session: session, counter: session.counter)), counted)
        case .revokeForReuse:
            try await tx.deleteSession(id: session.id)
            try await audit.record("token_revoked", actor: user.id, ip: ip, detail: "refresh token reuse", in: tx)
            let error = APIError(.badRequest, .refreshTokenAlreadyUsed, "Invalid Refresh Token: Already Used")
            return (.failure(error), .theftDetected)
        case .expired, .inactive:
            try await tx.deleteSession(id: session.id)
            return (.failure(APIError(.badRequest, .sessionExpired, "Session Expired")), .expired)
        case .banned:
            try await tx.deleteSessions(userID: user.id, except: nil)
            return (.failure(APIError.userBanned), .banned)
        case .notFound:
            return (.failure(Self.notFound), .notFound)
        }
    }

    private static let notFound = APIError(
        .badRequest,
        .refreshTokenNotFound,
        "Invalid Refresh Token: Refresh Token Not Found"
    )
}
