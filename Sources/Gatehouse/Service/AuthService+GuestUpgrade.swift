extension AuthService {
    /// Upgrades the signed-in guest with an e-mail and password, keeping its id.
    ///
    /// - Throws: ``ErrorCode/notSignedIn`` when no guest is signed in; other errors as
    ///   ``signUp(email:password:)`` does. An address that belongs to another account is an
    ///   outcome, not an error.
    public func upgradeGuest(email: String, password: String) async throws -> GuestUpgradeOutcome {
        let guest = try requireGuest()
        do {
            switch try await signUp(email: email, password: password) {
            case .signedIn(let user):
                return user.id == guest.id
                    ? .upgradedInPlace(user) : .signedIntoExistingAccount(user, previousGuestID: guest.id)
            case .confirmationRequired(let email):
                return .pendingVerification(email: email)
            }
        } catch let error as AuthError where error.code == .emailExists || error.code == .userAlreadyExists {
            clearError()
            return .emailBelongsToExistingAccount(email: email, previousGuestID: guest.id)
        }
    }

    /// Upgrades the signed-in guest with an Apple or Google ID token.
    ///
    /// When the provider identity is new, the guest keeps its id. When it already belongs to an
    /// account, that account is signed in instead (the server consumes the nonce only on
    /// success, so the same token is retried as a plain sign-in).
    public func upgradeGuest(with credential: IDTokenCredential) async throws -> GuestUpgradeOutcome {
        let guest = try requireGuest()
        do {
            let user = try await signIn(with: credential)
            return user.id == guest.id
                ? .upgradedInPlace(user) : .signedIntoExistingAccount(user, previousGuestID: guest.id)
        } catch let error as AuthError where error.code == .identityAlreadyExists {
            let user = try await operation {
                let started = generation
                let new = try await backend.signIn(with: credential, upgrading: nil)
                try await establish(new, startedIn: started, appleSignInUserID: credential.appleSignInUserID(of: new))
                return new.user
            }
            return .signedIntoExistingAccount(user, previousGuestID: guest.id)
        }
    }

    private func requireGuest() throws -> User {
        guard let user = currentUser, user.isAnonymous else {
            throw AuthError(
                code: .notSignedIn,
                message: "No guest is signed in.",
                recoverySuggestion: "Sign in as a guest first, or sign in to an account."
            )
        }
        return user
    }
}
