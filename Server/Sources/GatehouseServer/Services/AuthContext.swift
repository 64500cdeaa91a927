import Foundation
import GatehouseCore
import Logging

/// Everything the controllers share: configuration, storage, token and code services, the
/// password hasher, rate limits, mail and the clock.
public struct AuthContext: Sendable {
    let configuration: ServerConfiguration
    let storage: any AuthStorage
    let tokens: TokenService
    let refreshTokens: RefreshTokenCodec
    let codes: OneTimeCodes
    let passwords: PasswordHasher
    let policy: PasswordPolicy
    let limiter: any RateLimiter
    /// Issues, stores and mails codes.
    let delivery: CodeDelivery
    /// ID-token verifiers of the enabled providers.
    let idTokens: [IdentityProvider: IDTokenVerifier]
    let now: @Sendable () -> Date
    let logger: Logger

    /// Opens sessions and signs committed grants.
    var sessions: SessionIssuer { SessionIssuer(tokens: tokens, refreshTokens: refreshTokens) }

    /// The audit log on this context's clock.
    var auditLog: AuditLog { AuditLog(now: now) }

    /// Stores a new session for `user`, signed in by `method` (see ``SessionIssuer``).
    func issueSession(
        for user: UserRecord,
        method: String,
        in tx: any StorageTransaction,
        at now: Date
    )
        async throws -> SessionGrant
    {
        try await sessions.open(for: user, method: method, in: tx, at: now)
    }

    /// The response body for a committed grant (see ``SessionIssuer``).
    func wireSession(_ grant: SessionGrant, now: Date) async throws -> WireSession {
        try await sessions.answer(grant, now: now)
    }

    func audit(
        _ action: String,
        actor: UUID?,
        ip: String?,
        detail: String? = nil,
        in tx: any StorageTransaction
    )
        async throws
    {
        try await tx.appendAudit(AuditEntry(at: now(), action: action, actorID: actor, ip: ip, detail: detail))
    }
}
