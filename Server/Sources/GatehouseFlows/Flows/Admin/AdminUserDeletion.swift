package import Foundation
import GatehouseServerSupport
package import GatehouseStorage

/// `DELETE /admin/users/{id}`: removes the user and, by cascade, its identities, sessions and
/// codes; the same transaction queues the revocation of its Apple tokens (``AppleRevocationDelivery``).
/// The console calls it too, with the operator as the audit line's actor and the user as its
/// subject.
package struct AdminUserDeletion: Sendable {
    let storage: any AuthStorage
    let audit: AuditLog
    /// Delivers queued Apple revocations, when the server has Apple's developer key.
    let appleRevocations: AppleRevocationDelivery?
    let now: @Sendable () -> Date

    package func callAsFunction(_ user: UserRecord, ip: String, operator: UUID? = nil) async throws {
        let now = now()
        try await storage.transaction { tx in
            try await tx.queueAppleRevocations(userID: user.id, identityID: nil, reason: "admin_user_deleted", at: now)
            try await tx.deleteUser(id: user.id)
            try await audit.record(
                .adminUserDeleted,
                actor: `operator` ?? user.id,
                ip: ip,
                subject: `operator` == nil ? nil : user.id,
                in: tx
            )
        }
        appleRevocations?.deliverSoon()
    }
}
