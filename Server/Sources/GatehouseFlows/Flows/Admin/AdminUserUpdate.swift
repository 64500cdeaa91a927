package import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `PUT /admin/users/{id}`: changes address, password, confirmation, metadata or ban; a ban
/// ends the user's sessions at once. Changes apply to the row as it is inside the transaction,
/// not as read before the password hash. The console calls it too, with the operator as the
/// audit line's actor and the user as its subject.
package struct AdminUserUpdate: Sendable {
    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    let audit: AuditLog
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    package func callAsFunction(
        _ body: AdminUserRequest,
        of existing: UserRecord,
        ip: String,
        operator: UUID? = nil
    ) async throws -> UserRecord {
        let now = now()
        let email = try body.email.map(EmailAddress.normalized)
        var newHash: String?
        if let password = body.password {
            try policy.check(password, email: email ?? existing.email)
            newHash = try await passwords.hash(password)
        }
        let ban = try BanDuration.change(body.banDuration, now: now)
        let hash = newHash
        do {
            return try await storage.transaction { tx in
                guard var target = try await tx.user(id: existing.id) else {
                    throw APIError(.notFound, .userNotFound, "User not found")
                }
                if let email { target.email = email }
                if let hash { target.passwordHash = hash }
                if body.emailConfirm == true { target.emailConfirmedAt = target.emailConfirmedAt ?? now }
                if let data = body.userMetadata { target.userMetadata.merge(data) { _, new in new } }
                if let data = body.appMetadata { target.appMetadata.merge(data) { _, new in new } }
                try metadataLimit.check(target)
                target.bannedUntil = ban.applied(to: target.bannedUntil)
                target.updatedAt = now
                try await tx.updateUser(target)
                if target.isBanned(at: now) { try await tx.deleteSessions(userID: target.id, except: nil) }
                try await audit.record(
                    .adminUserModified,
                    actor: `operator` ?? target.id,
                    ip: ip,
                    subject: `operator` == nil ? nil : target.id,
                    in: tx
                )
                return target
            }
        } catch StorageError.duplicateEmail {
            throw APIError(
                .unprocessableContent,
                .emailExists,
                "A user with this email address has already been registered"
            )
        }
    }
}
