import Foundation
import GatehouseCore
import HTTPTypes

/// `PUT /user`: password, metadata and e-mail address of the caller, applied in one transaction
/// to the row as it is then (a password hash takes a while, and a ban or another change may
/// land meanwhile). A new address goes through ``EmailChange``, or ``GuestUpgrade`` for a guest.
///
/// Requests count against a per-user limit and a `nonce` is checked (and counted) first
/// (``ReauthenticationCheck``). A new password needs the current password (wrong tries count
/// against the account's password limit), a sign-in within 24 hours, or the nonce, also for a
/// user who has none yet; only then must it differ from the old one. A new password ends every
/// other session and tells the account's address (`security.md` OWN-4, PW-8, SE-6).
struct UserUpdate: Sendable {
    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    /// Wrong `current_password`s slow password sign-in like wrong passwords do.
    let delays: FailedPasswordDelays
    let check: ReauthenticationCheck
    let emailChange: EmailChange
    let guestUpgrade: GuestUpgrade
    let delivery: CodeDelivery
    let audit: AuditLog
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    /// Applies `body` and returns the updated user.
    func callAsFunction(_ body: UpdateUserRequest, caller: Caller, ip: String) async throws -> UserRecord {
        let now = now()
        try SecondFactorRule.requireAAL2(
            caller,
            when: body.password != nil || (body.email.map { $0.lowercased() != caller.user.email } ?? false),
            for: "change the e-mail address or password"
        )
        try await check(body.nonce, userID: caller.user.id, now: now)
        let hash = try await newPasswordHash(body, caller: caller, ip: ip, now: now)
        let (updated, mails): (UserRecord, [Mail?]) = try await storage.transaction { tx in
            guard var user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            var mails: [Mail?] = []
            if let hash {
                user.passwordHash = hash
                try await tx.deleteSessions(userID: user.id, except: caller.session.id)
                if let email = user.email, user.emailConfirmedAt != nil {
                    mails.append(try await delivery.notify(AccountNotice.passwordChanged(to: email), in: tx, now: now))
                }
            }
            if let data = body.data { user.userMetadata.merge(data) { _, new in new } }
            try metadataLimit.check(user)
            if let raw = body.email {
                let email = try EmailAddress.normalized(raw)
                if email != user.email {
                    if let owner = try await tx.user(email: email), owner.id != user.id {
                        throw EmailChange.emailExists
                    }
                    if user.isAnonymous {
                        mails += try await guestUpgrade.addEmail(email, to: &user, in: tx, now: now)
                    } else {
                        mails += try await emailChange.request(email, for: &user, in: tx, now: now)
                    }
                }
            }
            try GuestUpgrade.settle(&user, settingPassword: body.password != nil)
            user.updatedAt = now
            do {
                try await tx.updateUser(user)
            } catch StorageError.duplicateEmail {
                throw EmailChange.emailExists
            }
            try await audit.record("user_modified", actor: user.id, ip: ip, in: tx)
            return (user, mails)
        }
        for mail in mails { delivery.send(mail) }
        return updated
    }

    /// The hash of the new password, after its checks; `nil` when the update sets none.
    private func newPasswordHash(
        _ body: UpdateUserRequest,
        caller: Caller,
        ip: String,
        now: Date
    ) async throws -> String? {
        guard let password = body.password else { return nil }
        try policy.check(password, email: body.email ?? caller.user.email)
        if let currentPassword = body.currentPassword {
            try await verifyCurrent(currentPassword, of: caller.user, ip: ip, now: now)
        } else if !caller.user.isAnonymous, body.nonce == nil,
            now.timeIntervalSince(caller.session.createdAt) > 24 * 3600
        {
            throw APIError(.badRequest, .reauthenticationNeeded, "Password update requires reauthentication")
        }
        if let current = caller.user.passwordHash, try await passwords.verify(password, hash: current) {
            throw APIError(
                .unprocessableContent,
                .samePassword,
                "New password should be different from the old password."
            )
        }
        return try await passwords.hash(password)
    }

    /// Checks `current_password`; a wrong one counts like a wrong password at sign-in, for the
    /// account on the client's network (``FailedPasswordDelays``).
    private func verifyCurrent(_ currentPassword: String, of user: UserRecord, ip: String, now: Date) async throws {
        let key = user.email ?? user.id.uuidString.lowercased()
        try await delays.check(account: key, client: ip, now: now)
        guard try await passwords.verify(currentPassword, hash: user.passwordHash) else {
            await delays.recordFailure(account: key, client: ip, now: now)
            throw APIError(.badRequest, .currentPasswordInvalid, "Current password is incorrect")
        }
    }
}
