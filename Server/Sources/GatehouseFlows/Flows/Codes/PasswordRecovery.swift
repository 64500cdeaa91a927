package import Foundation
package import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `POST /recover`: mails a recovery code (a sign-in, after which `PUT /user` sets the new
/// password). Unknown addresses and sends within the spacing get the same answer and no mail.
///
/// On the request path the work is the same for known and unknown addresses: the client's
/// window, one read of the address and the mail budgets (``MailBudget``, which count unknown
/// addresses too); the code itself is written off the request path (``CodeDelivery/issueLater(admitted:_:)``),
/// so the answer takes as long either way (`security.md` EN-3, OWN-5).
package struct PasswordRecovery: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let audit: AuditLog
    let now: @Sendable () -> Date

    package func callAsFunction(_ body: RecoverRequest, pkce: EmailPKCE? = nil, ip: String) async throws {
        let now = now()
        try await delivery.spendBudget(client: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        let found = try await storage.read { try await $0.user(email: email) }
        // An unknown address is budgeted as a confirmed one: the answer must not tell them apart.
        let recipient = MailBudget.Recipient(found)
        let admitted = try await delivery.admit(
            email,
            recipient: recipient == .unknown ? .confirmed : recipient,
            client: ip,
            now: now
        )
        guard found != nil else { return await delivery.send(nil, admitted: admitted) }
        let (storage, delivery) = (self.storage, self.delivery)
        delivery.issueLater(admitted: admitted) {
            try await storage.transaction { tx in
                guard let user = try await tx.user(email: email) else { return nil }
                return try await Self.issue(
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

    /// An operator sends `user` a recovery code from the console: the same code and mail as
    /// `/recover`, under the same mail budgets (the operator's address as the client), with an
    /// audit line (``AuditAction/recoverySent``: the operator as actor, the user as
    /// subject). Unlike `/recover`, which must not tell, a send within the spacing is refused
    /// (429 `over_email_send_rate_limit`) so the operator knows no mail went out.
    package func send(to user: UserRecord, ip: String, operator: UUID) async throws {
        guard let email = user.email else { throw Self.noAddress }
        let now = now()
        let admitted = try await delivery.admit(email, recipient: MailBudget.Recipient(user), client: ip, now: now)
        let delivery = self.delivery
        let send = OperatorCodeSend(storage: storage, delivery: delivery, audit: audit)
        try await send(
            to: user,
            at: email,
            admitted: admitted,
            recording: .recoverySent,
            operator: `operator`,
            ip: ip
        ) { current, tx in
            try await Self.issue(
                to: current,
                admitted: admitted,
                spacing: .refuse,
                delivery: delivery,
                in: tx,
                now: now
            )
        }
    }

    /// 400: a user without an address (a guest, a provider-only account) cannot be mailed.
    static let noAddress = APIError.validation("This user has no e-mail address to send a code to.")

    /// Issues the recovery code of `user` and queues its mail in `tx`, noting when it was sent.
    private static func issue(
        to user: UserRecord,
        admitted: MailBudget.Admission,
        spacing: CodeDelivery.Spacing,
        pkce: EmailPKCE? = nil,
        delivery: CodeDelivery,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> IssuedCode? {
        var user = user
        let issued = try await delivery.issue(
            .recovery,
            for: user.id,
            to: admitted,
            spacing: spacing,
            pkce: pkce,
            in: tx,
            now: now
        )
        if issued != nil {
            user.recoverySentAt = now
            try await tx.updateUser(user)
        }
        return issued
    }
}
