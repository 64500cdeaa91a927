import Foundation
package import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `PUT /user`: password, metadata and e-mail address of the caller, applied in one transaction
/// to the row as it is then (a password hash takes a while, and a ban or another change may
/// land meanwhile). A new address goes through ``EmailChange``, or ``GuestUpgrade`` for a guest.
///
/// A new password (``SensitiveAction/changePassword``) or address (``SensitiveAction/changeEmail``)
/// needs what ``SensitiveActionPolicy`` says: AAL2 from a user with a verified factor, and a
/// sign-in within 10 minutes, a reauthentication `nonce` or, for the password, the current
/// password (wrong tries count against the account's password delays). Only then must a new
/// password differ from the old one. A new password ends every other session and tells the
/// account's address (`security.md` OWN-4, PW-8, SA-3).
package struct UserUpdate: Sendable {
    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    /// Wrong `current_password`s slow password sign-in like wrong passwords do.
    let delays: FailedPasswordDelays
    let sensitive: SensitiveActionGuard
    let emailChange: EmailChange
    let guestUpgrade: GuestUpgrade
    let delivery: CodeDelivery
    let audit: AuditLog
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    /// Applies `body` and returns the updated user.
    /// With `pkce`, the links of an address change open `GET /verify` with a code for the
    /// verifier's holder.
    package func callAsFunction(
        _ body: UpdateUserRequest,
        caller: Caller,
        pkce: EmailPKCE? = nil,
        ip: String
    ) async throws -> UserRecord {
        let now = now()
        let newEmail = try body.email.map(EmailAddress.normalized).flatMap { $0 == caller.user.email ? nil : $0 }
        var actions: [SensitiveAction] = []
        if body.password != nil { actions.append(.changePassword) }
        if newEmail != nil { actions.append(.changeEmail) }
        var permit: SensitiveActionPermit?
        // A nonce sent beside a change that needs none is checked all the same.
        if !actions.isEmpty || body.nonce != nil {
            let currentPassword = body.currentPassword.map { given in
                { @Sendable in try await verifyCurrent(given, of: caller.user, ip: ip, now: now) }
            }
            permit = try await sensitive.authorize(
                actions,
                caller,
                evidence: .init(nonce: body.nonce, currentPassword: currentPassword),
                ip: ip
            )
        }
        let hash = try await newPasswordHash(body, caller: caller)
        var mailing: EmailChange.Mailing?
        if let newEmail, !caller.user.isAnonymous || guestUpgrade.mailsCode {
            mailing = try await emailChange.admit(newEmail, for: caller.user, client: ip, now: now)
        }
        let (updated, issued): (UserRecord, [IssuedCode?])
        do {
            (updated, issued) = try await apply(
                body,
                hash: hash,
                newEmail: newEmail,
                mailing: mailing,
                permit: permit,
                caller: caller,
                pkce: pkce,
                ip: ip,
                now: now
            )
        } catch {
            for admitted in mailing?.all ?? [] { await delivery.send(nil, admitted: admitted) }
            throw error
        }
        for (index, admitted) in (mailing?.all ?? []).enumerated() {
            await delivery.send(index < issued.count ? issued[index] : nil, admitted: admitted)
        }
        if hash != nil { permit?.sendQueuedNotices() }
        return updated
    }

    /// The update in one transaction, on the user as it is then.
    ///
    /// - Returns: The user after it, and the codes of an address change (new address first).
    private func apply(
        _ body: UpdateUserRequest,
        hash: String?,
        newEmail: String?,
        mailing: EmailChange.Mailing?,
        permit: SensitiveActionPermit?,
        caller: Caller,
        pkce: EmailPKCE?,
        ip: String,
        now: Date
    ) async throws -> (UserRecord, [IssuedCode?]) {
        try await storage.transaction { tx in
            guard var user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            var issued: [IssuedCode?] = []
            if let hash {
                user.passwordHash = hash
                try await tx.deleteSessions(userID: user.id, except: caller.session.id)
                // The owner is told (the table's notices), in the change's transaction.
                try await permit?.queueNotices(in: tx, now: now)
            }
            if let data = body.data { user.userMetadata.merge(data) { _, new in new } }
            try metadataLimit.check(user)
            if let email = newEmail, email != user.email {
                if let owner = try await tx.user(email: email), owner.id != user.id {
                    throw EmailChange.emailExists
                }
                if let mailing {
                    issued += try await emailChange.request(mailing, for: &user, pkce: pkce, in: tx, now: now)
                } else {
                    guestUpgrade.confirmAtOnce(email, for: &user, now: now)
                }
            }
            try GuestUpgrade.settle(&user, settingPassword: body.password != nil)
            user.updatedAt = now
            do {
                try await tx.updateUser(user)
            } catch StorageError.duplicateEmail {
                throw EmailChange.emailExists
            }
            try await audit.record(.userModified, actor: user.id, ip: ip, in: tx)
            return (user, issued)
        }
    }

    /// The hash of the new password, after its checks; `nil` when the update sets none.
    private func newPasswordHash(_ body: UpdateUserRequest, caller: Caller) async throws -> String? {
        guard let password = body.password else { return nil }
        try policy.check(password, email: body.email ?? caller.user.email)
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
        let attempt = try await delays.admit(account: key, client: ip, now: now)
        guard try await passwords.verify(currentPassword, hash: user.passwordHash) else {
            throw APIError(.badRequest, .currentPasswordInvalid, "Current password is incorrect")
        }
        await delays.succeeded(attempt, now: now)
    }
}
