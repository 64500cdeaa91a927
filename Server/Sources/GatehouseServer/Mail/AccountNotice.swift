import Foundation

/// Messages that tell an account holder about a change they may not have made
/// (`security.md` PW-8): no code, no link, nothing to act on but a warning.
enum AccountNotice {
    /// To the old address after the account moved to another one.
    static func emailChanged(from old: String) -> Mail {
        Mail(
            to: old,
            subject: "Your e-mail address was changed",
            body: """
                The e-mail address of your account was changed, and this address no longer signs in.
                If you did not make this change, contact support at once.
                """
        )
    }

    /// To the account's address after its password changed.
    static func passwordChanged(to address: String) -> Mail {
        Mail(
            to: address,
            subject: "Your password was changed",
            body: """
                The password of your account was changed, and your other sessions were signed out.
                If you did not make this change, reset your password and contact support.
                """
        )
    }
}
