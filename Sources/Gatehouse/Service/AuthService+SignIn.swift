public import Foundation

extension AuthService {
    /// Creates an account with e-mail and password.
    ///
    /// When a guest is signed in, the guest is upgraded in place and keeps its id where the
    /// backend allows. When the backend requires e-mail confirmation, a code is sent and the
    /// result says so.
    @discardableResult
    public func signUp(email: String, password: String) async throws -> SignUpResult {
        try await operation {
            let email = try Self.validatedEmail(email)
            try Self.validatePasswordPresent(password)
            try await requireStoreRead()
            let started = generation
            let guest = tokens.flatMap { $0.user.isAnonymous ? $0 : nil }
            switch try await backend.signUp(email: email, password: password, upgrading: guest) {
            case .signedIn(let new):
                try await establish(new, startedIn: started)
                return .signedIn(new.user)
            case .confirmationRequired(let user):
                // A guest's pending address shows in `newEmail` (the guest keeps its session).
                if guest != nil, started == generation { await applyUser(user) }
                return .confirmationRequired(email: email)
            }
        }
    }

    /// Confirms a sign-up with the code e-mailed to the address, and signs in.
    @discardableResult
    public func confirmSignUp(email: String, code: String) async throws -> User {
        try await verify(email: email, code: code, type: .signup)
    }

    /// Signs in with e-mail and password.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> User {
        try await operation {
            let email = try Self.validatedEmail(email)
            try Self.validatePasswordPresent(password)
            try await requireStoreRead()
            let started = generation
            let new = try await backend.signIn(email: email, password: password)
            try await establish(new, startedIn: started)
            return new.user
        }
    }

    /// Signs in as a new guest user, who can be upgraded later by signing up or signing in
    /// with Apple or Google.
    @discardableResult
    public func signInAnonymously() async throws -> User {
        try await operation {
            try await requireStoreRead(keepingAStoredSession: true)
            let started = generation
            let new = try await backend.signInAnonymously()
            try await establish(new, startedIn: started)
            return new.user
        }
    }

    /// Signs in with the parts of a Sign in with Apple credential. A signed-in guest is
    /// upgraded in place where the backend allows.
    ///
    /// On Apple platforms pass the credential itself to `signInWithApple(credential:nonce:)`,
    /// which takes every part from it. This form is for credentials that arrive otherwise (a
    /// web view, another process): pass all of them.
    ///
    /// - Parameters:
    ///   - idToken: The identity token Apple returned.
    ///   - nonce: The raw nonce whose SHA-256 was sent in the Apple request.
    ///   - authorizationCode: Apple's one-time authorization code. Without it the server holds
    ///     no Apple refresh token, so deleting the account cannot revoke the user's Apple tokens
    ///     (App Store Review Guideline 5.1.1(v)): a sign-in without it logs a warning and stops
    ///     a debug build (``Configuration/developerAlarm``).
    ///   - fullName: The name Apple gave (on the first authorization only; `nil` later); the
    ///     server keeps it in the user's metadata where those fields are empty.
    @discardableResult
    public func signInWithApple(
        idToken: String,
        nonce: String?,
        authorizationCode: String?,
        fullName: PersonNameComponents?
    ) async throws -> User {
        try await signIn(
            with: IDTokenCredential(
                provider: .apple,
                idToken: idToken,
                nonce: nonce,
                authorizationCode: authorizationCode,
                fullName: fullName
            )
        )
    }

    /// Signs in with an ID token from Google Sign-In. A signed-in guest is upgraded in place
    /// where the backend allows.
    ///
    /// - Parameters:
    ///   - idToken: The ID token GoogleSignIn returned.
    ///   - nonce: The raw nonce (``SignInNonce/raw``) that was given to GoogleSignIn, which puts
    ///     it into the token unhashed.
    @discardableResult
    public func signInWithGoogle(idToken: String, nonce: String?) async throws -> User {
        try await signIn(with: IDTokenCredential(provider: .google, idToken: idToken, nonce: nonce))
    }

    /// Signs in with any supported ID token. An Apple credential should carry its
    /// ``IDTokenCredential/authorizationCode`` and, on the first authorization, its
    /// ``IDTokenCredential/fullName`` (see ``signInWithApple(idToken:nonce:authorizationCode:fullName:)``).
    @discardableResult
    public func signIn(with credential: IDTokenCredential) async throws -> User {
        reportMissingAuthorizationCode(credential)
        return try await operation {
            try await requireStoreRead()
            let started = generation
            let guest = tokens.flatMap { $0.user.isAnonymous ? $0 : nil }
            let new = try await backend.signIn(with: credential, upgrading: guest)
            try await establish(new, startedIn: started, appleSignInUserID: credential.appleSignInUserID(of: new))
            return new.user
        }
    }

    /// Logs a Sign in with Apple that lacks its authorization code, and stops a debug build
    /// (outside tests and previews) so that the developer passes it.
    func reportMissingAuthorizationCode(_ credential: IDTokenCredential) {
        guard credential.provider == .apple, credential.authorizationCode?.isEmpty ?? true else { return }
        configuration.log(
            .warning,
            "Sign in with Apple without its authorization code: the server cannot revoke the user's Apple "
                + "tokens when the account is deleted",
            ["guideline": "5.1.1(v)"]
        )
        configuration.developerAlarm.raise(
            "Sign in with Apple was called without the credential's authorizationCode. Pass the "
                + "ASAuthorizationAppleIDCredential to signInWithApple(credential:nonce:), which sends the code and "
                + "the name; without the code the server cannot revoke the user's Apple tokens when the account is "
                + "deleted (App Store Review Guideline 5.1.1(v))."
        )
    }

    /// Sends a one-time sign-in code to an e-mail address.
    public func sendMagicCode(to email: String) async throws {
        try await operation {
            try await backend.sendMagicCode(to: Self.validatedEmail(email))
        }
    }

    /// Verifies a one-time code from ``sendMagicCode(to:)`` and signs in.
    @discardableResult
    public func verifyMagicCode(email: String, code: String) async throws -> User {
        try await verify(email: email, code: code, type: .email)
    }

    /// Sends a password-reset message to an e-mail address. Succeeds for unknown addresses
    /// too, so it never reveals whether an address is registered.
    public func resetPassword(email: String) async throws {
        try await operation {
            try await backend.resetPassword(email: Self.validatedEmail(email))
        }
    }

    /// Changes the signed-in user's e-mail, password or metadata.
    ///
    /// A new password or address is a sensitive action (``SensitiveAction/changePassword``,
    /// ``SensitiveAction/changeEmail``): more than 10 minutes after the sign-in the server asks
    /// for proof (``ErrorCode/reauthenticationNeeded``): the code ``reauthenticate()`` e-mails,
    /// as ``UserChanges/nonce``, or, for a password, ``UserChanges/currentPassword``.
    @discardableResult
    public func updateUser(_ changes: UserChanges) async throws -> User {
        try await operation {
            var changes = changes
            changes.nonce = try Self.reauthenticationCode(changes.nonce)
            guard let current = tokens else { throw AuthError.notSignedIn() }
            let started = generation
            let action: SensitiveAction = changes.email == nil ? .changePassword : .changeEmail
            let user = try await explaining(action) { try await backend.updateUser(changes, for: current) }
            guard started == generation else { throw AuthError.sessionSuperseded() }
            let wasAnonymous = current.user.isAnonymous
            await applyUser(user)
            if wasAnonymous != user.isAnonymous {
                _ = try? await refreshedSession()
            }
            return user
        }
    }

    /// Deletes the signed-in user's account on the server, then forgets the session locally.
    ///
    /// Nothing changes locally if the server refuses; an account that is already gone counts
    /// as deleted. A sensitive action (``SensitiveAction/deleteAccount``): more than 10 minutes
    /// after the sign-in the server asks for a reauthentication code
    /// (``ErrorCode/reauthenticationNeeded``; see ``withReauthentication(_:asking:perform:)``).
    ///
    /// - Parameter nonce: The code ``reauthenticate()`` e-mailed, when the server asks for one.
    public func deleteAccount(nonce: String? = nil) async throws {
        try await operation {
            let nonce = try Self.reauthenticationCode(nonce)
            guard let current = tokens else { throw AuthError.notSignedIn() }
            let started = generation
            do {
                try await explaining(.deleteAccount) { try await backend.deleteAccount(current, nonce: nonce) }
            } catch let error as AuthError where error.code == .userNotFound {
                // Already gone: finish the local part.
            }
            guard started == generation else { throw AuthError.sessionSuperseded() }
            if let failure = await endSessionLocally(event: .userDeleted) { throw failure }
        }
    }

    private func verify(email: String, code: String, type: VerificationType) async throws -> User {
        try await operation {
            let email = try Self.validatedEmail(email)
            let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !code.isEmpty else { throw AuthError.validationFailed("Enter the code from the e-mail.") }
            try await requireStoreRead()
            let started = generation
            let new = try await backend.verifyCode(email: email, code: code, type: type)
            try await establish(new, startedIn: started)
            return new.user
        }
    }

    static func validatedEmail(_ email: String) throws -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !trimmed.contains(where: \.isWhitespace)
        else {
            throw AuthError.validationFailed("Enter a valid e-mail address.")
        }
        return trimmed
    }

    static func validatePasswordPresent(_ password: String) throws {
        guard !password.isEmpty else { throw AuthError.validationFailed("Enter a password.") }
    }
}
