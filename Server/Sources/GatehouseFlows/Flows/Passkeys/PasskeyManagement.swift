package import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `GET /passkeys`, `PATCH /passkeys/{id}`, `DELETE /passkeys/{id}` for the caller, and
/// `GET /admin/users/{id}/passkeys`, `DELETE /admin/users/{id}/passkeys/{passkey_id}` for admins.
///
/// Renaming (``SensitiveAction/renamePasskey``) and removing (``SensitiveAction/removePasskey``)
/// need what ``SensitiveActionPolicy`` says: a sign-in within 10 minutes or a reauthentication
/// `nonce`, and AAL2 from a user with a verified factor; the owner is told of a removal. A passkey
/// that is the account's last way to sign in (no e-mail identity, no provider identity, no other
/// passkey) cannot be removed, as with identities (``SignInWays``).
package struct PasskeyManagement: Sendable {
    let storage: any AuthStorage
    let sensitive: SensitiveActionGuard
    let audit: AuditLog
    let now: @Sendable () -> Date

    static let notFound = APIError(.notFound, .webAuthnCredentialNotFound, "Passkey not found")

    package func list(userID: UUID) async throws -> [WirePasskey] {
        try await storage.read { try await $0.passkeys(userID: userID) }.map(\.wire)
    }

    package func rename(
        _ caller: Caller,
        passkeyID: UUID?,
        body: PasskeyRenameRequest,
        nonce: String?,
        ip: String
    ) async throws -> WirePasskey {
        guard let name = try PasskeyRegistration.friendlyName(body.friendlyName) else {
            throw APIError.validation("friendly_name is required")
        }
        guard let passkeyID else { throw Self.notFound }
        _ = try await sensitive.authorize(.renamePasskey, caller, evidence: .init(nonce: nonce), ip: ip)
        let now = now()
        let userID = caller.user.id
        return try await storage.transaction { tx in
            guard var passkey = try await tx.passkeys(userID: userID).first(where: { $0.id == passkeyID }) else {
                throw Self.notFound
            }
            passkey.friendlyName = name
            passkey.updatedAt = now
            try await tx.updatePasskey(passkey)
            try await audit.record(.passkeyUpdated, actor: userID, ip: ip, detail: passkey.id.key, in: tx)
            return passkey.wire
        }
    }

    /// Removes one of the caller's passkeys, never the last way to sign in.
    package func remove(_ caller: Caller, passkeyID: UUID?, nonce: String?, ip: String) async throws {
        guard let passkeyID else { throw Self.notFound }
        let permit = try await sensitive.authorize(.removePasskey, caller, evidence: .init(nonce: nonce), ip: ip)
        let now = now()
        try await storage.transaction { tx in
            // Writing the user row first queues concurrent removals of the same account (PostgreSQL
            // row lock), so each counts what the other left.
            guard var user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            user.updatedAt = now
            try await tx.updateUser(user)
            let passkeys = try await tx.passkeys(userID: user.id)
            guard passkeys.contains(where: { $0.id == passkeyID }) else { throw Self.notFound }
            try SignInWays.requireAnother(user, passkeys: passkeys.count, removing: "passkey")
            guard try await tx.deletePasskey(id: passkeyID, userID: user.id) else { throw Self.notFound }
            try await audit.record(.passkeyDeleted, actor: user.id, ip: ip, detail: passkeyID.key, in: tx)
            try await permit.queueNotices("A passkey", in: tx, now: now)
        }
        permit.sendQueuedNotices()
    }

    /// An admin removes a user's passkey (no last-way rule: the admin can give the user another).
    /// From the console, `operator` is the audit line's actor and the user its subject.
    package func adminRemove(userID: UUID, passkeyID: UUID?, ip: String, operator: UUID? = nil) async throws {
        guard let passkeyID else { throw Self.notFound }
        try await storage.transaction { tx in
            guard try await tx.deletePasskey(id: passkeyID, userID: userID) else { throw Self.notFound }
            try await audit.record(
                .passkeyDeleted,
                actor: `operator`,
                ip: ip,
                detail: "\(userID.key) \(passkeyID.key)",
                subject: `operator` == nil ? nil : userID,
                in: tx
            )
        }
    }
}
