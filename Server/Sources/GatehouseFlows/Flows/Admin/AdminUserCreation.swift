import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `POST /admin/users`: creates a user with an optional password, confirmation and ban.
package struct AdminUserCreation: Sendable {
    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    let audit: AuditLog
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    /// Creates a user as an admin asked (`POST /admin/users`), counted as an admin sign-up.
    package func callAsFunction(_ body: AdminUserRequest, ip: String) async throws -> UserRecord {
        let user = try await create(body, ip: ip)
        AuthMetrics.signUp(.admin)
        return user
    }

    private func create(_ body: AdminUserRequest, ip: String) async throws -> UserRecord {
        let now = now()
        let email = try body.email.map { try EmailAddress.normalized($0) }
        var hash: String?
        if let password = body.password {
            try policy.check(password, email: email)
            hash = try await passwords.hash(password)
        }
        var user = UserRecord(
            email: email,
            passwordHash: hash,
            emailConfirmedAt: body.emailConfirm == true ? now : nil,
            appMetadata: (body.appMetadata ?? [:]).merging(["provider": "email", "providers": ["email"]]) { old, _ in
                old
            },
            userMetadata: body.userMetadata ?? [:],
            createdAt: now,
            updatedAt: now
        )
        try metadataLimit.check(user)
        user.bannedUntil = try BanDuration.change(body.banDuration, now: now).applied(to: nil)
        let created = user
        do {
            try await storage.transaction { tx in
                try await tx.insertUser(created)
                try await audit.record(.adminUserCreated, actor: created.id, ip: ip, in: tx)
            }
        } catch StorageError.duplicateEmail {
            throw APIError(
                .unprocessableContent,
                .emailExists,
                "A user with this email address has already been registered"
            )
        }
        return created
    }
}
