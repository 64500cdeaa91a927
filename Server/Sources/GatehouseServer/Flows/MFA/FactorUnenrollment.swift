import Foundation
import GatehouseCore
import HTTPTypes

/// `DELETE /factors/{id}` and the admin's `DELETE /admin/users/{id}/factors/{fid}`: removes a
/// factor; sessions that relied on it drop to AAL1. A user removes a verified factor only from an
/// AAL2 session.
struct FactorUnenrollment: Sendable {
    let storage: any AuthStorage
    let audit: AuditLog

    /// The caller removes one of their factors.
    func callAsFunction(factorID: UUID, caller: Caller, ip: String) async throws -> FactorRecord {
        try MFAAccess.requirePermanentUser(caller)
        return try await remove(factorID: factorID, userID: caller.user.id, ip: ip, action: "factor_unenrolled") {
            factor in
            if factor.isVerified, !MFAAccess.isAAL2(caller) {
                throw APIError(
                    .unprocessableContent,
                    .insufficientAAL,
                    "AAL2 required to unenroll a verified factor: verify a code first"
                )
            }
        }
    }

    /// An admin removes a user's factor (the way back in for a user who lost the app).
    func admin(factorID: UUID, userID: UUID, ip: String) async throws -> FactorRecord {
        try await remove(factorID: factorID, userID: userID, ip: ip, action: "factor_deleted_by_admin") { _ in }
    }

    private func remove(
        factorID: UUID,
        userID: UUID,
        ip: String,
        action: String,
        check: @escaping @Sendable (FactorRecord) throws -> Void
    ) async throws -> FactorRecord {
        try await storage.transaction { tx in
            guard let factor = try await tx.factor(id: factorID, userID: userID) else { throw MFAAccess.factorNotFound }
            try check(factor)
            _ = try await tx.deleteFactor(id: factorID, userID: userID)
            try await tx.downgradeSessions(factorID: factorID)
            try await audit.record(action, actor: userID, ip: ip, detail: factorID.key, in: tx)
            return factor
        }
    }
}
