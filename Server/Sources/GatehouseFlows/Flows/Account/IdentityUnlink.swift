package import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `DELETE /user/identities/{identity_id}`: unlinks a provider identity
/// (``SensitiveAction/unlinkIdentity``: what the caller must prove is ``SensitiveActionPolicy``'s,
/// and the owner is told), never the last way to sign in (a passkey counts: ``SignInWays``), and
/// never the e-mail identity (that is the address and password: `PUT /user`). Unlinking Apple
/// queues the revocation of its Apple token in the same transaction (``AppleRevocationDelivery``).
package struct IdentityUnlink: Sendable {
    let storage: any AuthStorage
    let sensitive: SensitiveActionGuard
    let audit: AuditLog
    /// Delivers queued Apple revocations, when the server has Apple's developer key.
    let appleRevocations: AppleRevocationDelivery?
    let now: @Sendable () -> Date

    package func callAsFunction(_ caller: Caller, identityID: UUID?, nonce: String?, ip: String) async throws {
        let notFound = APIError(.notFound, .identityNotFound, "Identity doesn't exist")
        guard let id = identityID else { throw notFound }
        let user = caller.user
        if id == user.id, user.hasEmailIdentity {
            throw APIError(
                .unprocessableContent,
                .singleIdentityNotDeletable,
                "The e-mail identity cannot be unlinked; change the address or password with PUT /user."
            )
        }
        guard let named = user.identities.first(where: { $0.id == id }) else { throw notFound }
        let permit = try await sensitive.authorize(.unlinkIdentity, caller, evidence: .init(nonce: nonce), ip: ip)
        let now = now()
        let queued = try await storage.transaction { tx in
            // Writing the user row first queues a concurrent passkey removal or unlink of the
            // same account (PostgreSQL row lock), so each counts what the other left.
            guard var user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            guard let identity = user.identities.first(where: { $0.id == id }) else { throw notFound }
            user.updatedAt = now
            try await tx.updateUser(user)
            let passkeys = try await tx.passkeys(userID: user.id).count
            try SignInWays.requireAnother(user, passkeys: passkeys, removing: "identity")
            let queued = try await tx.queueAppleRevocations(
                userID: user.id,
                identityID: identity.id,
                reason: "identity_unlinked",
                at: now
            )
            guard try await tx.deleteIdentity(id: identity.id, userID: user.id) else { throw notFound }
            let provider = identity.provider.rawValue
            try await audit.record(.identityUnlinked, actor: user.id, ip: ip, detail: provider, in: tx)
            let wayIn = IdentityProvider(rawValue: named.provider.rawValue)?.wayIn ?? "A sign-in provider"
            try await permit.queueNotices(wayIn, in: tx, now: now)
            return queued
        }
        permit.sendQueuedNotices()
        if queued > 0 { appleRevocations?.deliverSoon() }
    }
}
