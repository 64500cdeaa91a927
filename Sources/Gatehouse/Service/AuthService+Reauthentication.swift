import Foundation

/// Proof of a recent sign-in for the sensitive actions (``SensitiveAction``).
///
/// A Gatehouse server lets a session change how its account is entered (a password, the
/// address, a passkey, an authenticator app, a linked provider, other devices, deletion) within
/// 10 minutes of signing in. Later, the action answers ``ErrorCode/reauthenticationNeeded``
/// (``AuthError/Recovery-swift.enum/reauthenticate``): ``reauthenticate()`` e-mails a code to the
/// account's confirmed address, and the action is tried again with the code as `nonce`.
/// ``withReauthentication(_:asking:perform:)`` does that round for you:
///
/// ```swift
/// try await auth.withReauthentication(.unenrolFactor) { prompt in
///     await codeSheet.ask(prompt.message)   // "Enter the code we sent to ada@example.com …"; nil cancels
/// } perform: { nonce in
///     try await auth.mfa.unenroll(factorID: factor.id, nonce: nonce)
/// }
/// ```
extension AuthService {
    /// E-mails the signed-in user a reauthentication code (`GET /reauthenticate`), to send as
    /// `nonce` with a sensitive action when the last sign-in is more than 10 minutes old.
    ///
    /// The code goes to the account's confirmed address, lives a few minutes and dies after 5
    /// wrong tries; a new one replaces it.
    ///
    /// - Throws: ``ErrorCode/overEmailSendRateLimit`` (with ``AuthError/retryAfter``) when a code
    ///   was sent a moment ago: that code still works; ``ErrorCode/emailNotConfirmed`` when the
    ///   account has no confirmed address; ``ErrorCode/notSignedIn``; other answers as the server
    ///   gives them.
    public func reauthenticate() async throws {
        try await operation {
            let current = try await liveTokens()
            try await signingOutWhenEnded(current) { try await backend.reauthenticate(for: current) }
        }
    }

    /// Runs a sensitive action; when the server wants proof of a recent sign-in, e-mails a code
    /// (``reauthenticate()``), asks the person for it and runs the action again with it.
    ///
    /// A wrong code is asked for again (up to three times; the server takes five before the code
    /// dies). When the server refuses to send another code so soon, the one sent a moment ago
    /// still works and is asked for (``ReauthenticationPrompt/codeWasSent`` is `false`). An
    /// account with no confirmed address gets ``ErrorCode/reauthenticationNeeded`` saying to sign
    /// in again, without a prompt. Every other error, ``ErrorCode/insufficientAAL`` included, is
    /// thrown as the action threw it.
    ///
    /// ```swift
    /// try await auth.withReauthentication(.deleteAccount) { prompt in
    ///     await codeSheet.ask(prompt.message, wrongCode: prompt.previousError?.message)
    /// } perform: { nonce in
    ///     try await auth.deleteAccount(nonce: nonce)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - action: What the person is doing, for the prompt's words.
    ///   - askForCode: Shows the prompt and returns the code the person typed, or `nil` when they
    ///     cancel (the helper then throws ``ErrorCode/cancelled``).
    ///   - perform: The action, given `nil` first and then the code.
    /// - Returns: What `perform` returned.
    @discardableResult
    public func withReauthentication<Result>(
        _ action: SensitiveAction,
        asking askForCode: @MainActor (ReauthenticationPrompt) async throws -> String?,
        perform: @MainActor (_ nonce: String?) async throws -> Result
    ) async throws -> Result {
        let needed: AuthError
        do {
            return try await perform(nil)
        } catch let error as AuthError where error.code == .reauthenticationNeeded {
            needed = error
        }
        var codeWasSent = true
        do {
            try await reauthenticate()
        } catch let error as AuthError where error.code == .overEmailSendRateLimit {
            // The server keeps the code it sent a moment ago valid.
            codeWasSent = false
        } catch let error as AuthError where error.code == .emailNotConfirmed {
            // No address to mail a code to (a passkey-only account): only a new sign-in proves it.
            var signInAgain = AuthError.reauthenticationNeeded(for: action, email: nil)
            signInAgain.httpStatus = needed.httpStatus
            signInAgain.underlying = error.message
            operationError = signInAgain
            throw signInAgain
        }
        var previousError: AuthError?
        for attempt in 1...Self.reauthenticationAttempts {
            let prompt = ReauthenticationPrompt(
                action: action,
                email: confirmedEmail,
                codeWasSent: codeWasSent,
                previousError: previousError
            )
            guard let code = try await askForCode(prompt) else {
                throw AuthError(code: .cancelled, message: "Cancelled: \(action.purpose) needs the code.")
            }
            do {
                return try await perform(code)
            } catch let error as AuthError where error.code == .reauthenticationNotValid {
                guard attempt < Self.reauthenticationAttempts else { throw error }
                previousError = error
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// How many codes ``withReauthentication(_:asking:perform:)`` asks for before it gives up.
    static let reauthenticationAttempts = 3

    /// The account's confirmed address, where reauthentication codes go.
    var confirmedEmail: String? {
        guard let user = currentUser, !user.isAnonymous, user.emailConfirmedAt != nil else { return nil }
        return user.email
    }

    /// Runs a backend call of `action`; the answers about proof become errors in the words of a
    /// person doing it (``AuthError/explained(for:email:)``).
    func explaining<Result>(_ action: SensitiveAction, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw AuthError.wrapping(error).explained(for: action, email: confirmedEmail)
        }
    }

    /// A reauthentication code as typed (surrounding spaces removed), `nil` for none; an empty
    /// code is a usage error rather than a try the server would count.
    static func reauthenticationCode(_ nonce: String?) throws -> String? {
        guard let nonce else { return nil }
        let code = nonce.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty else { throw AuthError.validationFailed("Enter the code we e-mailed you.") }
        return code
    }
}
