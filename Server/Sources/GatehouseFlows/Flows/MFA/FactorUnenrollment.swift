package import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `DELETE /factors/{id}` and the admin's `DELETE /admin/users/{id}/factors/{fid}`: removes a
/// factor; sessions that relied on it drop to AAL1. What a user must prove
/// (``SensitiveAction/unenrolFactor``) is ``SensitiveActionPolicy``'s: a recent sign-in or a
/// reauthentication `nonce`, and AAL2 when the user has a verified factor; the owner is told when
/// a verified factor goes.
package struct FactorUnenrollment: Sendable {
    let storage: any AuthStorage
    let sensitive: SensitiveActionGuard
    let audit: AuditLog

    /// The caller removes one of their factors.
    package func callAsFunction(factorID: UUID, caller: Caller, nonce: String?, ip: String) async throws -> FactorRecord
    {
        try MFAAccess.requirePermanentUser(caller)
        let permit = try await sensitive.authorize(.unenrolFactor, caller, evidence: .init(nonce: nonce), ip: ip)
        let removed = try await remove(
            factorID: factorID,
            userID: caller.user.id,
            ip: ip,
            action: .factorUnenrolled,
            permit: permit
        )
        if removed.isVerified { permit.sendQueuedNotices() }
        return removed
    }

    /// An admin removes a user's factor (the way back in for a user who lost the app). From the
    /// console, `operator` is the audit line's actor and the user its subject.
    package func admin(factorID: UUID, userID: UUID, ip: String, operator: UUID? = nil) async throws -> FactorRecord {
        try await remove(
            factorID: factorID,
            userID: userID,
            ip: ip,
            action: .factorDeletedByAdmin,
            operator: `operator`
        )
    }

    private func remove(
        factorID: UUID,
        userID: UUID,
        ip: String,
        action: AuditAction,
        operator: UUID? = nil,
        permit: SensitiveActionPermit? = nil
    ) async throws -> FactorRecord {
        try await storage.transaction { tx in
            guard let factor = try await tx.factor(id: factorID, userID: userID) else { throw MFAAccess.factorNotFound }
            _ = try await tx.deleteFactor(id: factorID, userID: userID)
            try await tx.downgradeSessions(factorID: factorID)
            try await audit.record(
                action,
                actor: `operator` ?? userID,
                ip: ip,
                detail: factorID.key,
                subject: `operator` == nil ? nil : userID,
                in: tx
            )
            // The owner is told when a verified factor goes.
            if factor.isVerified { try await permit?.queueNotices("An authenticator app", in: tx) }
            return factor
        }
    }
}
