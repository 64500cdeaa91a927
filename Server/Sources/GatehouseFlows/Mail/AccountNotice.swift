import Foundation
import GatehouseStorage

/// Messages that tell an account holder about a change they may not have made
/// (`security.md` PW-8, SA-3): no code, no link, nothing to act on but a warning. Which action
/// sends which is ``SensitiveActionPolicy``'s to say.
enum AccountNotice {
    /// What happened to the account.
    enum Kind: String, Sendable, CaseIterable {
        /// A way in was added: a provider identity, a passkey, an authenticator app.
        case wayInAdded = "way_in_added"
        /// A way in was removed.
        case wayInRemoved = "way_in_removed"
        /// The password was changed.
        case passwordChanged = "password_changed"
        /// The account moved to another address (sent to the old one when the change completes).
        case addressChanged = "address_changed"
        /// The account was deleted.
        case accountDeleted = "account_deleted"
    }

    /// The notice of `kind` to `address`; `what` names the way in that was added or removed
    /// ("a passkey", "Sign in with Apple").
    static func mail(_ kind: Kind, to address: String, what: String? = nil) -> Mail {
        let warning = "If you did not make this change, contact support at once."
        switch kind {
        case .wayInAdded:
            return Mail(
                to: address,
                subject: "A new way to sign in was added to your account",
                body: """
                    \(capitalized(what ?? "A new way to sign in")) can now sign in to your account.
                    If you did not add it, remove it from your account settings, change your password and \
                    contact support.
                    """
            )
        case .wayInRemoved:
            return Mail(
                to: address,
                subject: "A way to sign in was removed from your account",
                body: """
                    \(capitalized(what ?? "A way to sign in")) can no longer sign in to your account.
                    \(warning)
                    """
            )
        case .passwordChanged:
            return Mail(
                to: address,
                subject: "Your password was changed",
                body: """
                    The password of your account was changed, and your other sessions were signed out.
                    If you did not make this change, reset your password and contact support.
                    """
            )
        case .addressChanged:
            return Mail(
                to: address,
                subject: "Your e-mail address was changed",
                body: """
                    The e-mail address of your account was changed, and this address no longer signs in.
                    \(warning)
                    """
            )
        case .accountDeleted:
            return Mail(
                to: address,
                subject: "Your account was deleted",
                body: """
                    Your account and everything it held were deleted, and every session was signed out.
                    \(warning)
                    """
            )
        }
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
