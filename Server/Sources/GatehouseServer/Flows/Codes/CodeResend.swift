import Foundation
import GatehouseCore

/// `POST /resend` for `signup` (to an unconfirmed address) and `email_change` (to the pending
/// new address, named by the current one). Anything with nothing to resend gets the same
/// answer and no mail.
struct CodeResend: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let now: @Sendable () -> Date

    func callAsFunction(_ body: ResendRequest, ip: String) async throws {
        let now = now()
        try await delivery.spendBudget(client: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        guard body.type == .signup || body.type == .emailChange else {
            throw APIError.validation("Only signup and email_change can be resent")
        }
        let mail: Mail? = try await storage.transaction { tx in
            guard var user = try await tx.user(email: email) else { return nil }
            if body.type == .signup {
                guard user.emailConfirmedAt == nil else { return nil }
                let bound = user.passwordCode == (try await tx.code(userID: user.id, purpose: .signup))?.linkHash
                let mail = try await delivery.issue(.signup, for: user.id, to: email, spacing: .skip, in: tx, now: now)
                if mail != nil, bound, user.passwordCode != nil {
                    // A resend is the same sign-up's confirmation: it proves the same password.
                    user.passwordCode = try await tx.code(userID: user.id, purpose: .signup)?.linkHash
                    try await tx.updateUser(user)
                }
                return mail
            }
            guard let pending = try await tx.code(userID: user.id, purpose: .emailChange), pending.expiresAt > now
            else { return nil }
            return try await delivery.issue(
                .emailChange,
                for: user.id,
                to: pending.email,
                spacing: .skip,
                in: tx,
                now: now
            )
        }
        delivery.send(mail)
    }
}
