import Foundation
import GatehouseCore
import HTTPTypes

/// A guest (anonymous user) becoming permanent through `PUT /user`: it takes an e-mail address
/// (confirmed by a sign-up code, or at once with autoconfirm) and a password, and keeps its id.
/// It is permanent once it has a confirmed address and a password.
struct GuestUpgrade: Sendable {
    let delivery: CodeDelivery
    /// `GATEHOUSE_MAILER_AUTOCONFIRM`: the address counts as confirmed at once.
    let autoconfirm: Bool

    /// Gives the guest `email` in `tx`, mailing a sign-up code unless autoconfirm is on.
    ///
    /// - Returns: The mail to send after the commit.
    func addEmail(
        _ email: String,
        to user: inout UserRecord,
        in tx: any StorageTransaction,
        now: Date
    ) async throws
        -> Mail?
    {
        user.email = email
        user.appMetadata = ["provider": "email", "providers": ["email"]]
        if autoconfirm {
            user.emailConfirmedAt = now
            return nil
        }
        let mail = try await delivery.issue(.signup, for: user.id, to: email, spacing: .ignore, in: tx, now: now)
        user.confirmationSentAt = now
        return mail
    }

    /// Makes a guest permanent when it has everything, and refuses a password without an address.
    ///
    /// - Parameters:
    ///   - user: The user after the update's changes.
    ///   - settingPassword: Whether the update sets a password.
    /// - Throws: 422 `validation_failed` for a guest's password without an e-mail address.
    static func settle(_ user: inout UserRecord, settingPassword: Bool) throws {
        if user.isAnonymous, user.email != nil, user.passwordHash != nil, user.emailConfirmedAt != nil {
            user.isAnonymous = false
        }
        if user.isAnonymous, settingPassword, user.email == nil {
            throw APIError(
                .unprocessableContent,
                .validationFailed,
                "Updating password of an anonymous user without an email is not allowed"
            )
        }
    }
}
