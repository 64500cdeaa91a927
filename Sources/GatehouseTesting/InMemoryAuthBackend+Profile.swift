import Foundation
import Gatehouse

/// Changes to a signed-in user, with the server's rules (`PUT /user`).
extension InMemoryAuthBackend {
    /// Applies `changes` to the user, all or nothing:
    /// - a new password follows the password rules; when `currentPassword` is given it must
    ///   match, and only then must the new one differ from the current one; it ends every
    ///   session of the user but `session`;
    /// - `data` merges into the user's metadata;
    /// - a new address waits in `User.newEmail`: a guest's (or an unconfirmed user's) is
    ///   confirmed by an `email_change` code sent to it, a permanent user's by that code and a
    ///   second one sent to the current address; with confirmation off a guest takes it at once,
    ///   and becomes permanent once it has a confirmed address and a password.
    func applyChanges(_ changes: UserChanges, toUser id: String, session: String?) throws -> User {
        guard var account = accounts[id] else { throw Self.userNotFound() }
        var pendingCodes: [(email: String, type: VerificationType)] = []
        if let password = changes.password {
            try validate(password: password, email: changes.email ?? account.user.email)
            if let current = changes.currentPassword, account.passwordHash?.matches(current) != true {
                throw AuthError(
                    code: .currentPasswordInvalid,
                    message: "Current password is incorrect.",
                    recoverySuggestion: "Check the current password.",
                    httpStatus: 400
                )
            }
            if let hash = account.passwordHash, hash.matches(password) {
                throw AuthError(
                    code: .samePassword,
                    message: "New password should be different from the old password.",
                    recoverySuggestion: "Choose another password.",
                    httpStatus: 422
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
                if account.user.isAnonymous, !configuration.requiresEmailConfirmation {
                    account.user.email = email
                    account.user.emailConfirmedAt = now
                    account.user.appMetadata = ["provider": "email", "providers": ["email"]]
                } else {
                    account.user.newEmail = email
                    pendingCodes.append((email, .emailChange))
                    if let current = account.user.email, account.user.emailConfirmedAt != nil,
                        !account.user.isAnonymous
                    {
                        pendingCodes.append((current, .emailChangeCurrent))
                    } else {
                        codes[id]?[.emailChangeCurrent] = nil
                    }
                }
            }
        }
        if account.user.isAnonymous, account.user.email != nil, account.passwordHash != nil,
            account.user.emailConfirmedAt != nil
        {
            account.user.isAnonymous = false
        }
        if account.user.isAnonymous, changes.password != nil, account.user.email == nil,
            account.user.newEmail == nil
        {
            throw AuthError(
                code: .validationFailed,
                message: "Updating password of an anonymous user without an email is not allowed.",
                recoverySuggestion: "Add an e-mail address with the password.",
                httpStatus: 422
            )
        }
        accounts[id] = account
        if changes.password != nil { endSessions { $0.userID == id && $0.id != session } }
        for pending in pendingCodes { issueCode(to: pending.email, forUser: id, type: pending.type) }
        return account.user
    }
}
