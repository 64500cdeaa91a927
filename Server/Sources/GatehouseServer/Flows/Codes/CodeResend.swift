import Foundation
import GatehouseCore

/// `POST /resend` for `signup` (to an unconfirmed address) and `email_change` (to the pending
/// new address, named by the current one, and to the current address when its code is pending
/// too). Anything with nothing to resend gets the same
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
        let mails: [Mail?] = try await storage.transaction { tx in
            guard var user = try await tx.user(email: email) else { return [] }
            if body.type == .signup {
                guard user.emailConfirmedAt == nil else { return [] }
                let bound = user.passwordCode == (try await tx.code(userID: user.id, purpose: .signup))?.linkHash
                let mail = try await delivery.issue(.signup, for: user.id, to: email, spacing: .skip, in: tx, now: now)
                if mail != nil, bound, user.passwordCode != nil {
                    // A resend is the same sign-up's confirmation: it proves the same password.
                    user.passwordCode = try await tx.code(userID: user.id, purpose: .signup)?.linkHash
                    try await tx.updateUser(user)
                }
                return [mail]
            }
            var mails: [Mail?] = []
            for purpose in [CodePurpose.emailChange, .emailChangeCurrent] {
                guard let pending = try await tx.code(userID: user.id, purpose: purpose), pending.expiresAt > now
                else { continue }
                mails.append(
                    try await delivery.issue(purpose, for: user.id, to: pending.email, spacing: .skip, in: tx, now: now)
                )
            }
            return mails
        }
        for mail in mails { delivery.send(mail) }
    }
}
