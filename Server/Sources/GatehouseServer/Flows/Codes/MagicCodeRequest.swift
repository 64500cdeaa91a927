import Foundation
import GatehouseCore

/// `POST /otp`: mails a sign-in code, creating the account first unless `create_user` is false
/// or sign-ups are off. An unknown address that is not created gets the same answer and no mail.
struct MagicCodeRequest: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    /// `GATEHOUSE_DISABLE_SIGNUP`.
    let signupDisabled: Bool
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    func callAsFunction(_ body: OTPRequest, ip: String) async throws {
        let now = now()
        try metadataLimit.check(body.data)
        try await delivery.spendBudget(client: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        let createUser = (body.createUser ?? true) && !signupDisabled
        let mail: Mail? = try await storage.transaction { tx in
            var user = try await tx.user(email: email)
            if user == nil, createUser {
                let created = UserRecord(
                    email: email,
                    appMetadata: ["provider": "email", "providers": ["email"]],
                    userMetadata: body.data ?? [:],
                    createdAt: now,
                    updatedAt: now
                )
                try await tx.insertUser(created)
                user = created
            }
            guard let user else { return nil }
            return try await delivery.issue(.magicLink, for: user.id, to: email, spacing: .refuse, in: tx, now: now)
        }
        // An address no account has is spaced like a known one (whose code refuses in `issue`).
        if mail == nil { try await delivery.spaceUnknownRecipient(email, purpose: .magicLink, now: now) }
        delivery.send(mail)
    }
}
