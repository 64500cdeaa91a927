extension AuthService {
    /// Links an Apple or Google account to the signed-in user, who can then sign in with it too
    /// (`POST /token?grant_type=id_token` with `link_identity`).
    ///
    /// A sensitive action (``SensitiveAction/linkIdentity``): more than 10 minutes after the
    /// sign-in the server asks for a reauthentication code (``ErrorCode/reauthenticationNeeded``;
    /// see ``withReauthentication(_:asking:perform:)``), and a user with an authenticator app needs
    /// an AAL2 session (``ErrorCode/insufficientAAL``). The server opens a session for the linked
    /// sign-in, which this device adopts. A guest is upgraded the same way
    /// (``upgradeGuest(with:)`` also handles an identity that has an account already).
    ///
    /// ```swift
    /// let credential = IDTokenCredential(provider: .google, idToken: token, nonce: nonce.raw)
    /// try await auth.withReauthentication(.linkIdentity) { prompt in
    ///     await codeSheet.ask(prompt.message)
    /// } perform: { code in
    ///     try await auth.linkIdentity(credential, nonce: code)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - credential: The provider's ID token, with its own raw nonce; each token links once.
    ///   - nonce: The code ``reauthenticate()`` e-mailed (sent as `reauthentication_nonce`, since
    ///     the credential's ``IDTokenCredential/nonce`` is the ID token's), when the server asks for one.
    /// - Returns: The user, whose ``User/identities`` now include the provider's.
    /// - Throws: ``ErrorCode/identityAlreadyExists`` when the provider account belongs to another
    ///   user; ``ErrorCode/notSignedIn``; the server's other refusals.
    @discardableResult
    public func linkIdentity(_ credential: IDTokenCredential, nonce: String? = nil) async throws -> User {
        reportMissingAuthorizationCode(credential)
        return try await operation {
            let nonce = try Self.reauthenticationCode(nonce)
            let current = try await liveTokens()
            let started = generation
            let linked = try await explaining(.linkIdentity) {
                try await signingOutWhenEnded(current) {
                    try await backend.linkIdentity(credential, nonce: nonce, for: current)
                }
            }
            try await establish(linked, startedIn: started, appleSignInUserID: credential.appleSignInUserID(of: linked))
            return linked.user
        }
    }
}
