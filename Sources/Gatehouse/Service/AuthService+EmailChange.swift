import Foundation

extension AuthService {
    /// Asks to move the signed-in user (or guest) to a new e-mail address.
    ///
    /// Nothing changes until the codes are entered with ``confirmEmailChange(email:code:)``: the
    /// user keeps the current address (a guest stays a guest) and ``User/newEmail`` holds the
    /// pending one.
    ///
    /// A sensitive action (``SensitiveAction/changeEmail``): more than 10 minutes after the
    /// sign-in the server asks for a reauthentication code (``ErrorCode/reauthenticationNeeded``;
    /// see ``withReauthentication(_:asking:perform:)``).
    ///
    /// - Parameters:
    ///   - email: The new address.
    ///   - nonce: The code ``reauthenticate()`` e-mailed, when the server asks for one.
    /// - Returns: Which addresses were sent a code, or ``EmailChangeStatus/completed(_:)`` when
    ///   the server applied the address at once (a guest under autoconfirm).
    /// - Throws: ``ErrorCode/emailExists`` when another account has the address;
    ///   ``ErrorCode/notSignedIn``; other server errors.
    public func updateUser(email: String, nonce: String? = nil) async throws -> EmailChangeStatus {
        let email = try Self.validatedEmail(email)
        let before = currentUser
        let user = try await updateUser(UserChanges(email: email, nonce: nonce))
        if user.email?.lowercased() == email.lowercased() { return .completed(user) }
        if let current = before?.email, before?.emailConfirmedAt != nil, before?.isAnonymous == false {
            return .codesSentToBothAddresses(newEmail: user.newEmail ?? email, currentEmail: current)
        }
        return .codeSentToNewAddress(newEmail: user.newEmail ?? email)
    }

    /// Enters one code of an e-mail change: the new address with the code sent to it, or the
    /// current address with the code sent to it.
    ///
    /// When both sides are done (or the only side, for a guest) the change completes, the user
    /// is signed in with a new session (the server ends the others) and a guest becomes a
    /// permanent user with the same id.
    ///
    /// - Returns: ``EmailChangeStatus/otherAddressPending`` or ``EmailChangeStatus/completed(_:)``.
    /// - Throws: ``ErrorCode/otpExpired`` for a wrong or used code; ``ErrorCode/emailExists``
    ///   when the address was taken meanwhile.
    @discardableResult
    public func confirmEmailChange(email: String, code: String) async throws -> EmailChangeStatus {
        try await operation {
            let email = try Self.validatedEmail(email)
            let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !code.isEmpty else { throw AuthError.validationFailed("Enter the code from the e-mail.") }
            try await requireStoreRead()
            let started = generation
            switch try await backend.verifyEmailChange(email: email, code: code) {
            case .otherAddressPending:
                return .otherAddressPending
            case .completed(let session):
                try await establish(session, startedIn: started)
                return .completed(session.user)
            }
        }
    }
}
