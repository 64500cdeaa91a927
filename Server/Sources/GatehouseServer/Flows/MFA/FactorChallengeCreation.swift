import Foundation
import GatehouseCore
import HTTPTypes

/// `POST /factors/{id}/challenge`: a challenge of one of the caller's factors, answerable for
/// 300 s from the same client address. Rate limited per client and per user.
struct FactorChallengeCreation: Sendable {
    let storage: any AuthStorage
    let limiter: any RateLimiter
    let limits: RateLimitSettings
    let audit: AuditLog
    let now: @Sendable () -> Date

    func callAsFunction(factorID: UUID, caller: Caller, ip: String) async throws -> WireFactorChallenge {
        try MFAAccess.requirePermanentUser(caller)
        let now = now()
        try await MFAAccess.limit(caller, ip: ip, limiter: limiter, limits: limits, now: now)
        let challenge = FactorChallengeRecord(
            factorID: factorID,
            userID: caller.user.id,
            ip: ip,
            createdAt: now,
            expiresAt: now.addingTimeInterval(FactorChallengeRecord.lifetime)
        )
        let created = try await storage.transaction { tx in
            guard let factor = try await tx.factor(id: factorID, userID: caller.user.id) else { return false }
            if factor.hasLapsed(at: now) {
                _ = try await tx.deleteFactor(id: factor.id, userID: caller.user.id)
                return false
            }
            try await tx.insertChallenge(challenge)
            try await audit.record("factor_challenged", actor: caller.user.id, ip: ip, detail: factorID.key, in: tx)
            return true
        }
        guard created else { throw MFAAccess.factorNotFound }
        return WireFactorChallenge(id: challenge.id.key, expiresAt: Int(challenge.expiresAt.timeIntervalSince1970))
    }
}
