import Foundation
import GatehouseCore
import HTTPTypes

/// `DELETE /user`: self-service deletion. Needs a sign-in within the last 24 hours or a
/// reauthentication `nonce` (from `GET /reauthenticate`, counted by ``ReauthenticationCheck``).
/// The user, identities, sessions and codes go in one transaction (by cascade), recorded in the
/// audit log; the same transaction queues the revocation of the user's Apple tokens
/// (``AppleRevocationDelivery``), which never holds up or undoes the deletion.
struct AccountDeletion: Sendable {
    let storage: any AuthStorage
    let check: ReauthenticationCheck
    let audit: AuditLog
    /// Delivers queued Apple revocations, when the server has Apple's developer key.
    let appleRevocations: AppleRevocationDelivery?
    let now: @Sendable () -> Date

    func callAsFunction(_ caller: Caller, nonce: String?, ip: String) async throws {
        let now = now()
        try SecondFactorRule.requireAAL2(caller, when: true, for: "delete the account")
        let lastAuthentication = caller.session.amr.map(\.timestamp).max() ?? 0
        let recent = now.timeIntervalSince1970 - Double(lastAuthentication) <= 24 * 3600
        guard recent || nonce != nil else {
            throw APIError(
                .badRequest,
                .reauthenticationNeeded,
                "Deleting the account requires a recent sign-in or a reauthentication code"
            )
        }
        try await check(nonce, userID: caller.user.id, now: now)
        try await storage.transaction { tx in
            try await tx.queueAppleRevocations(userID: caller.user.id, identityID: nil, reason: "user_deleted", at: now)
            try await tx.deleteUser(id: caller.user.id)
            try await audit.record("user_deleted", actor: caller.user.id, ip: ip, detail: "self-service", in: tx)
        }
        appleRevocations?.deliverSoon()
    }
}
