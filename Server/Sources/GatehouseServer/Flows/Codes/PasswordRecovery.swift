import Foundation
import GatehouseCore

/// `POST /recover`: mails a recovery code (a sign-in, after which `PUT /user` sets the new
/// password). Unknown addresses and sends within the spacing get the same answer and no mail.
///
/// On the request path the work is the same for known and unknown addresses: the client's
/// window, one read of the address and the mail budgets (``MailBudget``, which count unknown
/// addresses too); the code itself is written off the request path (``CodeDelivery/issueLater(admitted:_:)``),
/// so the answer takes as long either way (`security.md` EN-3, OWN-5).
struct PasswordRecovery: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let now: @Sendable () -> Date

    func callAsFunction(_ body: RecoverRequest, pkce: EmailPKCE? = nil, ip: String) async throws {
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
                guard var user = try await tx.user(email: email) else { return nil }
                let mail = try await delivery.issue(
                    .recovery,
                    for: user.id,
                    to: admitted,
                    spacing: .skip,
                    pkce: pkce,
                    in: tx,
                    now: now
                )
                if mail != nil {
                    user.recoverySentAt = now
                    try await tx.updateUser(user)
                }
                return mail
            }
        }
    }
}
