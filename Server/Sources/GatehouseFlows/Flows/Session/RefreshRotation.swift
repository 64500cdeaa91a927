import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /token?grant_type=refresh_token`: reads the session, applies ``RefreshDecision``, and
/// signs the answer after the commit.
///
/// The common cases take two statements: the session and its user are read without a
/// transaction, and a rotation is then one conditional `UPDATE` of the counter that also appends
/// the audit line (``StorageTransaction/rotateSession(id:expectedCounter:at:from:audit:)``), on
/// PostgreSQL without `BEGIN`/`COMMIT` and on the connection the read used
/// (``AuthStorage/read(_:thenAutocommit:)``). The counter condition makes the read safe: the session's
/// salt and sign-in time never change, and any refresh, elevation or end moves or removes the
/// counter. When the rotation loses to a concurrent request (another instance, or a queued
/// request), the fresh row decides again. Answers that change nothing (the current token for a
/// replay, not found) write nothing; decisions that end sessions run in one transaction that
/// reads the row again.
package struct RefreshRotation: Sendable {
    let storage: any AuthStorage
    let refreshTokens: RefreshTokenCodec
    let sessions: SessionIssuer
    let audit: AuditLog
    let rules: RefreshDecision.Rules
    let now: @Sendable () -> Date

    /// The session and its user as read (`nil`: not found), and what the presented token asks of them.
    private struct Read: Sendable {
        var row: (SessionRecord, UserRecord)?
        var decision: RefreshDecision
    }

    private enum Outcome: Sendable {
        case session(SessionGrant)
        case failure(APIError)
    }

    /// Rotates `token`, or answers with the current token, or ends the session.
    ///
    /// - Throws: ``APIError`` `refresh_token_not_found`, `refresh_token_already_used`,
    ///   `session_expired` or `user_banned`.
    package func callAsFunction(_ token: String, ip: String) async throws -> WireSession {
        let now = now()
        guard let parsed = refreshTokens.parse(token) else {
            AuthMetrics.refresh(.notFound)
            throw Self.notFound
        }
        let (fetched, written) = try await storage.read { reader -> Read in
            let row = try await reader.sessionWithUser(id: parsed.sessionID)
            return Read(row: row, decision: decide(row, parsed, now: now))
        } thenAutocommit: { read -> (@Sendable (any StorageTransaction) async throws -> Rotation)? in
            guard case .rotate = read.decision, let (session, user) = read.row else { return nil }
            return rotation(of: session, user: user, ip: ip, now: now)
        }
        let (row, decision) = (fetched.row, fetched.decision)
        let (outcome, counted): (Outcome, AuthMetrics.RefreshOutcome)
        if let written, let (session, user) = row {
            (outcome, counted) = Self.outcome(of: written, session: session, user: user, presented: parsed.counter)
        } else if let unchanged = Self.withoutWrites(decision, row: row) {
            (outcome, counted) = unchanged
        } else {
            (outcome, counted) = try await decideInTransaction(parsed, ip: ip, now: now)
        }
        AuthMetrics.refresh(counted)
        switch outcome {
        case .session(let grant): return try await sessions.answer(grant, now: now)
        case .failure(let error): throw error
        }
    }

    /// What the presented token asks of `row` (the session and its user, if found).
    private func decide(
        _ row: (SessionRecord, UserRecord)?,
        _ parsed: RefreshTokenCodec.Parsed,
        now: Date
    ) -> RefreshDecision {
        RefreshDecision.decide(
            row: row,
            presented: parsed.counter,
            isAuthentic: row.map { refreshTokens.isAuthentic(parsed, for: $0.0) } ?? false,
            now: now,
            rules: rules
        )
    }

    /// Reads the row again inside a transaction and applies what it decides (the decisions that
    /// end sessions, whose writes must agree with the row they read).
    private func decideInTransaction(
        _ parsed: RefreshTokenCodec.Parsed,
        ip: String,
        now: Date
    ) async throws -> (Outcome, AuthMetrics.RefreshOutcome) {
        try await storage.transaction { tx in
            let row = try await tx.sessionWithUser(id: parsed.sessionID)
            let decision = decide(row, parsed, now: now)
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
    }

    /// What a rotation's write found: it moved the counter on, or another request had moved it
    /// (the session as it is now, read right after on the same connection).
    private enum Rotation: Sendable {
        case won
        case lost(current: SessionRecord?)
    }

    /// The write that moves the session's counter on if it is still the one read, with its audit
    /// line, in one statement; when it loses to a concurrent request, it reads the winner's row.
    private func rotation(
        of session: SessionRecord,
        user: UserRecord,
        ip: String,
        now: Date
    ) -> @Sendable (any StorageTransaction) async throws -> Rotation {
        let line = audit.entry(.tokenRefreshed, actor: user.id, ip: ip)
        return { tx in
            let won = try await tx.rotateSession(
                id: session.id,
                expectedCounter: session.counter,
                at: now,
                from: ip,
                audit: line
            )
            return won ? .won : .lost(current: try await tx.session(id: session.id))
        }
    }

    /// The answer to a rotation's write: the next token, or, after a lost race, what the
    /// winner's row decides.
    private static func outcome(
        of rotation: Rotation,
        session: SessionRecord,
        user: UserRecord,
        presented: Int64
    ) -> (Outcome, AuthMetrics.RefreshOutcome) {
        switch rotation {
        case .won: rotated(session, user: user)
        case .lost(let current): afterLostRotation(current, user: user, presented: presented)
        }
    }

    /// The outcome of a decision that writes nothing (the current token, or not found); `nil`
    /// for the others.
    private static func withoutWrites(
        _ decision: RefreshDecision,
        row: (SessionRecord, UserRecord)?
    ) -> (Outcome, AuthMetrics.RefreshOutcome)? {
        switch decision {
        case .answerCurrent(let replay):
            guard let (session, user) = row else { return (.failure(notFound), .notFound) }
            let counted: AuthMetrics.RefreshOutcome =
                switch replay {
                case .directParent: .parentReplay
                case .withinReuseInterval: .reuseInsideInterval
                case .concurrentRotation: .concurrentRotation
                }
            return (.session(SessionGrant(user: user, session: session, counter: session.counter)), counted)
        case .notFound:
            return (.failure(notFound), .notFound)
        case .rotate, .revokeForReuse, .expired, .inactive, .banned:
            return nil
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
        if let unchanged = Self.withoutWrites(decision, row: (session, user)) { return unchanged }
        switch decision {
        case .rotate:
            let write = rotation(of: session, user: user, ip: ip, now: now)
            return Self.outcome(of: try await write(tx), session: session, user: user, presented: presented)
        case .revokeForReuse:
            try await tx.deleteSession(id: session.id)
            try await audit.record(.tokenRevoked, actor: user.id, ip: ip, detail: "refresh token reuse", in: tx)
            let error = APIError(.badRequest, .refreshTokenAlreadyUsed, "Invalid Refresh Token: Already Used")
            return (.failure(error), .theftDetected)
        case .expired, .inactive:
            try await tx.deleteSession(id: session.id)
            return (.failure(APIError(.badRequest, .sessionExpired, "Session Expired")), .expired)
        case .banned:
            try await tx.deleteSessions(userID: user.id, except: nil)
            return (.failure(APIError.userBanned), .banned)
        case .answerCurrent, .notFound:
            return (.failure(Self.notFound), .notFound)
        }
    }

    private static func rotated(_ session: SessionRecord, user: UserRecord) -> (Outcome, AuthMetrics.RefreshOutcome) {
        var rotated = session
        rotated.counter += 1
        return (.session(SessionGrant(user: user, session: rotated, counter: rotated.counter)), .rotated)
    }

    /// A rotation lost its conditional update: another request's update held the row lock and
    /// has committed, so `current` (read afterwards) shows its child.
    private static func afterLostRotation(
        _ current: SessionRecord?,
        user: UserRecord,
        presented: Int64
    ) -> (Outcome, AuthMetrics.RefreshOutcome) {
        let again = RefreshDecision.afterLostRotation(current: current, presented: presented)
        guard case .answerCurrent = again, let current else { return (.failure(notFound), .notFound) }
        return (.session(SessionGrant(user: user, session: current, counter: current.counter)), .concurrentRotation)
    }

    private static let notFound = APIError(
        .badRequest,
        .refreshTokenNotFound,
        "Invalid Refresh Token: Refresh Token Not Found"
    )
}
