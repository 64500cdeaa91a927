import Foundation
import GatehouseCore
import HTTPTypes

/// `PUT /user`: password, metadata and e-mail address of the caller, applied in one transaction
/// to the row as it is then (a password hash takes a while, and a ban or another change may
/// land meanwhile). A new address goes through ``EmailChange``, or ``GuestUpgrade`` for a guest.
///
/// A new password must differ from the old one and needs the current password, a sign-in
/// within 24 hours, or a reauthentication `nonce`.
struct UserUpdate: Sendable {
    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    let codes: OneTimeCodes
    let emailChange: EmailChange
    let guestUpgrade: GuestUpgrade
    let delivery: CodeDelivery
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// Applies `body` and returns the updated user.
    func callAsFunction(_ body: UpdateUserRequest, caller: Caller, ip: String) async throws -> UserRecord {
        let now = now()
        let hash = try await newPasswordHash(body, caller: caller, now: now)
        let (updated, mails): (UserRecord, [Mail?]) = try await storage.transaction { tx in
            guard var user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            var mails: [Mail?] = []
            if let nonce = body.nonce {
                try await codes.consumeReauthentication(nonce, userID: user.id, in: tx, now: now)
            }
            if let hash { user.passwordHash = hash }
            if let data = body.data { user.userMetadata.merge(data) { _, new in new } }
            if let raw = body.email {
                let email = try EmailAddress.normalized(raw)
                if email != user.email {
                    if let owner = try await tx.user(email: email), owner.id != user.id { throw Self.emailExists }
                    if user.isAnonymous {
                        mails.append(try await guestUpgrade.addEmail(email, to: &user, in: tx, now: now))
                    } else {
                        mails.append(try await emailChange.request(email, for: user, in: tx, now: now))
                    }
                }
            }
            try GuestUpgrade.settle(&user, settingPassword: body.password != nil)
            user.updatedAt = now
            do {
                try await tx.updateUser(user)
            } catch StorageError.duplicateEmail {
                throw Self.emailExists
            }
            try await audit.record("user_modified", actor: user.id, ip: ip, in: tx)
            return (user, mails)
        }
        for mail in mails { delivery.send(mail) }
        return updated
    }

    /// The hash of the new password, after its checks; `nil` when the update sets none.
    private func newPasswordHash(_ body: UpdateUserRequest, caller: Caller, now: Date) async throws -> String? {
        guard let password = body.password else { return nil }
        try policy.check(password, email: body.email ?? caller.user.email)
        if let current = caller.user.passwordHash, try await passwords.verify(password, hash: current) {
            throw APIError(
                .unprocessableContent,
                .samePassword,
                "New password should be different from the old password."
            )
        }
        if let currentPassword = body.currentPassword {
            guard try await passwords.verify(currentPassword, hash: caller.user.passwordHash) else {
                throw APIError(.badRequest, .currentPasswordInvalid, "Current password is incorrect")
            }
        } else if !caller.user.isAnonymous, caller.user.passwordHash != nil, body.nonce == nil,
            now.timeIntervalSince(caller.session.createdAt) > 24 * 3600
        {
            throw APIError(.badRequest, .reauthenticationNeeded, "Password update requires reauthentication")
        }
        return try await passwords.hash(password)
    }

    private static let emailExists = APIError(
        .unprocessableContent,
        .emailExists,
        "A user with this email address has already been registered"
    )
}
