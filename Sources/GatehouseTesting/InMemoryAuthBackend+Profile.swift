import Foundation
import Gatehouse

/// Changes to a signed-in user, with the server's rules (`PUT /user`).
extension InMemoryAuthBackend {
    /// Applies `changes` to the user, all or nothing:
    /// - a new password follows the password rules, differs from the current one and, when
    ///   `currentPassword` is given, needs it to match;
    /// - `data` merges into the user's metadata;
    /// - a guest's new address is confirmed by a `signup` code (at once when confirmation is
    ///   off), and the guest becomes permanent once it has a confirmed address and a password;
    /// - a permanent user's new address is confirmed by an `email_change` code sent to it, and
    ///   the address stays the old one until then.
    func applyChanges(_ changes: UserChanges, toUser id: String) throws -> User {
        guard var account = accounts[id] else { throw Self.userNotFound() }
        var pendingCode: (email: String, type: VerificationType)?
        if let password = changes.password {
            try validate(password: password, email: changes.email ?? account.user.email)
            if let hash = account.passwordHash, hash.matches(password) {
                throw AuthError(
                    code: .samePassword,
                    message: "New password should be different from the old password.",
                    recoverySuggestion: "Choose another password.",
                    httpStatus: 422
                )
            }
            if let current = changes.currentPassword, account.passwordHash?.matches(current) != true {
                throw AuthError(
                    code: .currentPasswordInvalid,
                    message: "Current password is incorrect.",
                    recoverySuggestion: "Check the current password.",
                    httpStatus: 400
                )
            }
            account.passwordHash = SaltedHash(password: password)
        }
        if let data = changes.data {
            account.user.userMetadata.merge(data) { _, new in new }
        }
        if let raw = changes.email {
            let email = try normalized(raw)
            if email != account.user.email {
                if let owner = userID(forEmail: email), owner != id { throw Self.emailExists() }
                if account.user.isAnonymous {
                    account.user.email = email
                    account.user.appMetadata = ["provider": "email", "providers": ["email"]]
                    if configuration.requiresEmailConfirmation {
                        pendingCode = (email, .signup)
                    } else {
                        account.user.emailConfirmedAt = now
                    }
                } else {
                    pendingCode = (email, .emailChange)
                }
            }
        }
        if account.user.isAnonymous, account.user.email != nil, account.passwordHash != nil,
            account.user.emailConfirmedAt != nil
        {
            account.user.isAnonymous = false
        }
        if account.user.isAnonymous, changes.password != nil, account.user.email == nil {
            throw AuthError(
                code: .validationFailed,
                message: "Updating password of an anonymous user without an email is not allowed.",
                recoverySuggestion: "Add an e-mail address with the password.",
                httpStatus: 422
            )
        }
        accounts[id] = account
        if let pendingCode { issueCode(to: pendingCode.email, forUser: id, type: pendingCode.type) }
        return account.user
    }
}
