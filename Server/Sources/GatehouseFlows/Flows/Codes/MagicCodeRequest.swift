import Foundation
package import GatehouseCore
import GatehouseStorage

/// `POST /otp`: mails a sign-in code, creating the account first unless `create_user` is false
/// or sign-ups are off. An unknown address that is not created gets the same answer and no mail.
/// The mail budgets (``MailBudget``) decide before anything is issued: a new account's code is a
/// sign-up mail, and a code to an address never confirmed spends that budget.
package struct MagicCodeRequest: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    /// `GATEHOUSE_DISABLE_SIGNUP`.
    let signupDisabled: Bool
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    package func callAsFunction(_ body: OTPRequest, pkce: EmailPKCE? = nil, ip: String) async throws {
        let now = now()
        try metadataLimit.check(body.data)
        try await delivery.spendBudget(client: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        let createUser = (body.createUser ?? true) && !signupDisabled
        let found = try await storage.read { try await $0.user(email: email) }
        let creates = found == nil && createUser
        let admitted = try await delivery.admit(
            email,
            recipient: creates ? .unconfirmed : MailBudget.Recipient(found),
            kind: creates ? .signUp : .other,
            client: ip,
            now: now
        )
        let issued: IssuedCode?
        do {
            issued = try await storage.transaction { tx in
                var user = try await tx.user(email: email)
                if user == nil, createUser {
                    let created = UserRecord.emailAccount(email, metadata: body.data, now: now)
                    try await tx.insertUser(created)
                    user = created
                }
                guard let user else { return nil }
                return try await delivery.issue(
                    .magicLink,
                    for: user.id,
                    to: admitted,
                    spacing: .refuse,
                    pkce: pkce,
                    in: tx,
                    now: now
                )
            }
        } catch {
            await delivery.send(nil, admitted: admitted)
            throw error
        }
        // An address no account has is spaced like a known one (whose code refuses in `issue`).
        if issued == nil { try await delivery.spaceUnknownRecipient(email, purpose: .magicLink, now: now) }
        await delivery.send(issued, admitted: admitted)
    }
}
