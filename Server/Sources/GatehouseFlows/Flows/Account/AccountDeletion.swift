import Foundation
import GatehouseCore
import GatehouseStorage
import HTTPTypes

/// `DELETE /user`: self-service deletion (``SensitiveAction/deleteAccount``): what the caller
/// must prove is ``SensitiveActionPolicy``'s (a sign-in within 10 minutes or a reauthentication
/// `nonce`, AAL2 from a user with a verified factor). The user, identities, sessions and codes go
/// in one transaction (by cascade), recorded in the audit log; the same transaction queues the
/// revocation of the user's Apple tokens (``AppleRevocationDelivery``), which never holds up or
/// undoes the deletion. The confirmed address is told.
package struct AccountDeletion: Sendable {
    let storage: any AuthStorage
    let sensitive: SensitiveActionGuard
    let audit: AuditLog
    /// Delivers queued Apple revocations, when the server has Apple's developer key.
    let appleRevocations: AppleRevocationDelivery?
    let now: @Sendable () -> Date

    package func callAsFunction(_ caller: Caller, nonce: String?, ip: String) async throws {
        let permit = try await sensitive.authorize(.deleteAccount, caller, evidence: .init(nonce: nonce), ip: ip)
        let now = now()
        try await storage.transaction { tx in
            try await tx.queueAppleRevocations(userID: caller.user.id, identityID: nil, reason: "user_deleted", at: now)
            try await tx.deleteUser(id: caller.user.id)
            try await audit.record(.userDeleted, actor: caller.user.id, ip: ip, detail: "self-service", in: tx)
            try await permit.queueNotices(in: tx, now: now)
        }
        permit.sendQueuedNotices()
        appleRevocations?.deliverSoon()
    }
}
