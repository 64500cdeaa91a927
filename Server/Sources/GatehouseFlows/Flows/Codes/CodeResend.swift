package import Foundation
package import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `POST /resend` for `signup` (to an unconfirmed address) and `email_change` (to the pending
/// new address, named by the current one, and to the current address when its code is pending
/// too). Anything with nothing to resend gets the same answer and no mail; the mail budgets
/// (``MailBudget``) count every request alike.
///
/// A resent sign-up code proves the pending password only if the code it replaces did: a resend
/// never certifies a password its sign-up did not set (a contested sign-up's password proves
/// nothing, ``SignUp``).
package struct CodeResend: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let audit: AuditLog
    let now: @Sendable () -> Date

    package func callAsFunction(_ body: ResendRequest, pkce: EmailPKCE? = nil, ip: String) async throws {
        let now = now()
        try await delivery.spendBudget(client: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        guard body.type == .signup || body.type == .emailChange else {
            throw APIError.validation("Only signup and email_change can be resent")
        }
        let found = try await storage.read { try await $0.user(email: email) }
        if body.type == .signup {
            // An unknown or confirmed address is budgeted as a pending one: the answer must not tell.
            let admitted = try await delivery.admit(email, recipient: .unconfirmed, kind: .signUp, client: ip, now: now)
            guard let found, found.emailConfirmedAt == nil else { return await delivery.send(nil, admitted: admitted) }
            return try await delivery.issueNow(admitted: admitted) {
                try await storage.transaction { tx in
                    guard let user = try await tx.user(id: found.id), user.emailConfirmedAt == nil else { return nil }
                    return try await Self.confirmation(
                        to: user,
                        admitted: admitted,
                        spacing: .skip,
                        pkce: pkce,
                        delivery: delivery,
                        in: tx,
                        now: now
                    )
                }
            }
        }
        let admitted = try await delivery.admit(email, recipient: MailBudget.Recipient(found), client: ip, now: now)
        guard let found else { return await delivery.send(nil, admitted: admitted) }
        let pending = try await storage.read { reader in
            var pending: [CodeRecord] = []
            for purpose in [CodePurpose.emailChange, .emailChangeCurrent] {
                if let code = try await reader.code(userID: found.id, purpose: purpose), code.expiresAt > now {
                    pending.append(code)
                }
            }
            return pending
        }
        var answered = false
        for code in pending {
            // The current address is the one named; the new address, never confirmed, has its own budgets.
            let side: MailBudget.Admission
            if code.email == email {
                side = admitted
                answered = true
            } else {
                side = try await delivery.admit(code.email, recipient: .unconfirmed, client: ip, now: now)
            }
            try await delivery.issueNow(admitted: side) {
                try await storage.transaction { tx in
                    try await delivery.issue(
                        code.purpose,
                        for: found.id,
                        to: side,
                        spacing: .skip,
                        pkce: pkce,
                        in: tx,
                        now: now
                    )
                }
            }
        }
        if !answered { await delivery.send(nil, admitted: admitted) }
    }

    /// An operator resends `user`'s sign-up confirmation from the console: the same code and
    /// mail as `/resend` (`signup`), under the same mail budgets (the operator's address as the
    /// client), with an audit line (``AuditAction/confirmationResent``: the operator as
    /// actor, the user as subject). Unlike `/resend`, which must not tell, a confirmed address is
    /// refused (``alreadyConfirmed``) and a send within the spacing is refused (429
    /// `over_email_send_rate_limit`), so the operator knows no mail went out.
    package func resendConfirmation(to user: UserRecord, ip: String, operator: UUID) async throws {
        guard let email = user.email else { throw PasswordRecovery.noAddress }
        guard user.emailConfirmedAt == nil else { throw Self.alreadyConfirmed }
        let now = now()
        let admitted = try await delivery.admit(email, recipient: .unconfirmed, kind: .signUp, client: ip, now: now)
        let delivery = self.delivery
        let send = OperatorCodeSend(storage: storage, delivery: delivery, audit: audit)
        try await send(
            to: user,
            at: email,
            admitted: admitted,
            recording: .confirmationResent,
            operator: `operator`,
            ip: ip,
            check: { guard $0.emailConfirmedAt == nil else { throw Self.alreadyConfirmed } }
        ) { current, tx in
            try await Self.confirmation(
                to: current,
                admitted: admitted,
                spacing: .refuse,
                delivery: delivery,
                in: tx,
                now: now
            )
        }
    }

    /// 409: the address is confirmed already; there is nothing to resend.
    static let alreadyConfirmed = APIError(
        .conflict,
        .conflict,
        "The address is confirmed already: there is no confirmation to resend."
    )

    /// Issues the sign-up confirmation of the unconfirmed `user` and queues its mail in `tx`.
    private static func confirmation(
        to user: UserRecord,
        admitted: MailBudget.Admission,
        spacing: CodeDelivery.Spacing,
        pkce: EmailPKCE? = nil,
        delivery: CodeDelivery,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> IssuedCode? {
        var user = user
        let bound = user.passwordCode == (try await tx.code(userID: user.id, purpose: .signup))?.linkHash
        let issued = try await delivery.issue(
            .signup,
            for: user.id,
            to: admitted,
            spacing: spacing,
            pkce: pkce,
            in: tx,
            now: now
        )
        if let issued, bound, user.passwordCode != nil {
            // A resend is the same sign-up's confirmation: it proves the same password.
            user.passwordCode = issued.record.linkHash
            try await tx.updateUser(user)
        }
        return issued
    }

}
