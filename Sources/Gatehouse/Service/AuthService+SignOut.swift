import Foundation

extension AuthService {
    /// Signs out. Never fails here.
    ///
    /// The stored session is deleted first, then the signed-out state is published, then the
    /// backend is told (best-effort: offline or an error changes nothing locally). Only the
    /// auth session is touched; the app's own data stays.
    ///
    /// Ending the *other* devices' sessions is a sensitive action
    /// (``SensitiveAction/endOtherSessions``): more than 10 minutes after the sign-in the server
    /// wants a reauthentication code, and an AAL2 session from a user with an authenticator app.
    /// Without it, `.global` still signs out here but the other devices stay signed in: the
    /// service then reports ``ErrorCode/otherSessionsNotEnded`` in ``operationError``. To ask for
    /// the code while this device can still send it, call ``endOtherSessions(nonce:)`` first
    /// (with ``withReauthentication(_:asking:perform:)``), then `signOut()`.
    ///
    /// - Parameters:
    ///   - scope: Which server sessions end: `.local` (this device, the default), `.others`
    ///     (every other device, as ``endOtherSessions(nonce:)``: this device stays signed in, and
    ///     a refusal shows in ``operationError``) or `.global` (all).
    ///   - nonce: The code ``reauthenticate()`` e-mailed, for `.others` and `.global`.
    public func signOut(scope: LogoutScope = .local, nonce: String? = nil) async {
        let ending = tokens
        if scope == .others, ending != nil {
            // Nothing ends here: the outcome is the server's, and a refusal is reported.
            _ = try? await endOtherSessions(nonce: nonce)
            return
        }
        operationStatus = .pending
        operationError = nil
        let failure = await endSessionLocally(event: .signedOut)
        operationStatus = failure == nil ? .success : .error
        operationError = failure
        guard let ending else { return }
        let code = nonce.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        do {
            try await backend.signOut(ending, scope: scope, nonce: code)
        } catch {
            let refusal = AuthError.wrapping(error)
            configuration.log(.info, "Server sign-out failed; signed out locally", ["code": refusal.code.rawValue])
            if scope == .global, failure == nil, Self.proofCodes.contains(refusal.code) {
                operationStatus = .error
                operationError = .otherSessionsNotEnded(because: refusal)
            }
        }
    }

    /// Signs out every other device (`POST /logout?scope=others`); this device stays signed in.
    ///
    /// A sensitive action (``SensitiveAction/endOtherSessions``): more than 10 minutes after the
    /// sign-in the server asks for a reauthentication code (``ErrorCode/reauthenticationNeeded``),
    /// and a user with an authenticator app needs an AAL2 session (``ErrorCode/insufficientAAL``).
    ///
    /// ```swift
    /// try await auth.withReauthentication(.endOtherSessions) { prompt in
    ///     await codeSheet.ask(prompt.message)
    /// } perform: { nonce in
    ///     try await auth.endOtherSessions(nonce: nonce)
    /// }
    /// ```
    ///
    /// - Parameter nonce: The code ``reauthenticate()`` e-mailed, when the server asks for one.
    /// - Throws: The server's refusal, in words a person can act on; a definitive answer (this
    ///   session has ended too) also signs out here.
    public func endOtherSessions(nonce: String? = nil) async throws {
        try await operation {
            let nonce = try Self.reauthenticationCode(nonce)
            let current = try await liveTokens()
            try await explaining(.endOtherSessions) {
                try await signingOutWhenEnded(current) {
                    try await backend.signOut(current, scope: .others, nonce: nonce)
                }
            }
        }
    }

    /// The answers about proof: a reauthentication code or a second factor is wanted.
    static let proofCodes: Set<ErrorCode> = [.reauthenticationNeeded, .reauthenticationNotValid, .insufficientAAL]
}

extension AuthService {
    /// Removes a stored session that could not be restored, and shows sign-in: the "Sign in
    /// again" of a session-error screen (``AuthGate/SessionErrorAction/signInAgain``), for
    /// errors retrying cannot fix. Ask the person first; their account and the app's data are
    /// not touched. Never fails: a store that cannot be cleared is reported in ``operationError``,
    /// and the next sign-in replaces what it holds.
    public func discardStoredSession() async {
        operationStatus = .pending
        operationError = nil
        let failure = await endSessionLocally(event: .signedOut)
        storeHasBeenRead = true
        operationStatus = failure == nil ? .success : .error
        operationError = failure
    }
}
