package import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /factors/{id}/challenge`: a challenge of one of the caller's factors, answerable for
/// 300 s from the same client address; a factor not verified yet only from the session that
/// enrolled it. Counted against ``MFABudget``.
package struct FactorChallengeCreation: Sendable {
    let storage: any AuthStorage
    let budget: MFABudget
    let audit: AuditLog
    let now: @Sendable () -> Date

    package func callAsFunction(factorID: UUID, caller: Caller, ip: String) async throws -> WireFactorChallenge {
        try MFAAccess.requirePermanentUser(caller)
        let now = now()
        try await budget.admitRequest(caller, ip: ip, now: now)
        let challenge = FactorChallengeRecord(
            factorID: factorID,
            userID: caller.user.id,
            ip: ip,
            createdAt: now,
            expiresAt: now.addingTimeInterval(FactorChallengeRecord.lifetime)
        )
        let refusal: APIError? = try await storage.transaction { tx in
            guard let factor = try await tx.factor(id: factorID, userID: caller.user.id) else {
                return MFAAccess.factorNotFound
            }
            if factor.hasLapsed(at: now) {
                _ = try await tx.deleteFactor(id: factor.id, userID: caller.user.id)
                return MFAAccess.factorNotFound
            }
            guard SensitiveActionGuard.isEnrollingSession(factor, of: caller) else {
                return SensitiveActionGuard.enrolledElsewhere
            }
            try await tx.insertChallenge(challenge)
            try await audit.record(.factorChallenged, actor: caller.user.id, ip: ip, detail: factorID.key, in: tx)
            return nil
        }
        if let refusal { throw refusal }
        return WireFactorChallenge(id: challenge.id.key, expiresAt: Int(challenge.expiresAt.timeIntervalSince1970))
    }
}
