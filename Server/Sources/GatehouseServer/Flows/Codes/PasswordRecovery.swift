import Foundation
import GatehouseCore

/// `POST /recover`: mails a recovery code (a sign-in, after which `PUT /user` sets the new
/// password). Unknown addresses and sends within the spacing get the same answer and no mail.
struct PasswordRecovery: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let now: @Sendable () -> Date

    func callAsFunction(_ body: RecoverRequest, ip: String) async throws {
        let now = now()
        try await delivery.spendBudget(client: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        let mail: Mail? = try await storage.transaction { tx in
            guard var user = try await tx.user(email: email) else { return nil }
            let mail = try await delivery.issue(.recovery, for: user.id, to: email, spacing: .skip, in: tx, now: now)
            if mail != nil {
                user.recoverySentAt = now
                try await tx.updateUser(user)
            }
            return mail
        }
        delivery.send(mail)
    }
}
