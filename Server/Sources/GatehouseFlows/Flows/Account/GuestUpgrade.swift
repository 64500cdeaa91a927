import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// A guest (anonymous user) becoming permanent through `PUT /user`, keeping its id.
///
/// The guest's address is pending like any new address (``EmailChange``: `new_email` and an
/// `email_change` code) and the guest stays anonymous until it is proven (`security.md` OWN-2).
/// With autoconfirm (`GATEHOUSE_MAILER_AUTOCONFIRM`, where no address is ever proven) the address
/// is the guest's at once, as in GoTrue.
struct GuestUpgrade: Sendable {
    /// `GATEHOUSE_MAILER_AUTOCONFIRM`: the address counts as confirmed at once.
    let autoconfirm: Bool

    /// Whether a guest's new address is mailed a code (else it is the guest's at once).
    var mailsCode: Bool { !autoconfirm }

    /// Gives the guest `email` at once (autoconfirm); without autoconfirm the address is pending
    /// like any new one (``EmailChange/request(_:for:in:now:)``).
    func confirmAtOnce(_ email: String, for user: inout UserRecord, now: Date) {
        user.email = email
        user.emailConfirmedAt = now
        user.appMetadata = ["provider": "email", "providers": ["email"]]
    }

    /// Makes an autoconfirmed guest permanent when it has everything, and refuses a password
    /// without an address (proven or pending).
    ///
    /// - Parameters:
    ///   - user: The user after the update's changes.
    ///   - settingPassword: Whether the update sets a password.
    /// - Throws: 422 `validation_failed` for a guest's password without an e-mail address.
    static func settle(_ user: inout UserRecord, settingPassword: Bool) throws {
        if user.isAnonymous, user.email != nil, user.passwordHash != nil, user.emailConfirmedAt != nil {
            user.isAnonymous = false
        }
        if user.isAnonymous, settingPassword, user.email == nil, user.newEmail == nil {
            throw APIError(
                .unprocessableContent,
                .validationFailed,
                "Updating password of an anonymous user without an email is not allowed"
            )
        }
    }
}
