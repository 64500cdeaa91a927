import Foundation
public import Gatehouse

/// The server's table of sensitive actions (`SensitiveActionPolicy`), as this backend keeps it:
/// AAL2 whenever the user has a verified factor (answered with the status the server gives the
/// action), and for most actions a sign-in or second-factor verification within 10 minutes, or a
/// reauthentication code from ``reauthenticate(for:)`` sent as `nonce`. A code that is sent is
/// always checked, even after a recent sign-in: it works once, for `codeLifetime`, and dies after
/// `maximumCodeAttempts` wrong tries. A guest with no way in besides its session (no provider, no
/// passkey) has nothing to protect and needs no proof.
extension InMemoryAuthBackend {
    /// How recent a session's authentication must be (seconds), as on the server.
    static let recentAuthentication: TimeInterval = 600

    /// E-mails the user a reauthentication code to its confirmed address (read it in tests with
    /// ``lastCode(for:type:)`` and type `VerificationType.reauthentication`), replacing the one
    /// before; a second request within `minimumCodeInterval` is refused
    /// (`over_email_send_rate_limit`, and the code sent before stays valid), as on the server.
    public func reauthenticate(for session: Session) async throws {
        try await enter(.reauthenticate)
        let access = try authenticate(session)
        guard let user = accounts[access.userID]?.user, let email = user.email, user.emailConfirmedAt != nil else {
            throw AuthError(
                code: .emailNotConfirmed,
                message: "Email not confirmed",
                recoverySuggestion: "Confirm the account's e-mail address first.",
                httpStatus: 422
            )
        }
        if let wait = spacingLeft(forUser: access.userID, type: .reauthentication) {
            throw Self.sendSpacing(wait)
        }
        issueCode(to: email, forUser: access.userID, type: .reauthentication)
    }

    /// Throws unless the caller of `access` may `purpose` ("delete the account") now; a `nonce`
    /// that is sent is checked and spent.
    ///
    /// - Parameters:
    ///   - needsRecentSignIn: `false` for the actions that need only AAL2 (listing sessions), or
    ///     that another proof stood in for (the current password).
    ///   - aalStatus: The status of the `insufficient_aal` answer (401, 403 enrolment, 422 removal).
    func authorizeSensitive(
        _ purpose: String,
        _ access: AccessRecord,
        nonce: String? = nil,
        needsRecentSignIn: Bool = true,
        aalStatus: Int = 401
    ) throws {
        try requireAAL2(access, for: purpose, status: aalStatus)
        // Whatever is sent is checked, even when the sign-in is recent.
        if let nonce {
            try consumeReauthentication(nonce, userID: access.userID)
            return
        }
        guard needsRecentSignIn, let record = sessions[access.sessionID],
            now.timeIntervalSince(record.authenticatedAt) > Self.recentAuthentication, !hasNoWayIn(access.userID)
        else { return }
        throw AuthError(
            code: .reauthenticationNeeded,
            message: "To \(purpose) you need a sign-in within the last 10 minutes or a reauthentication code: "
                + "call GET /reauthenticate and send the mailed code as nonce.",
            recoverySuggestion:
                "Confirm it is you: ask for a code by e-mail, then try again with it (or sign in again).",
            httpStatus: 400
        )
    }

    /// Checks a reauthentication code and spends it; a wrong one counts against the code's tries
    /// (`reauthentication_not_valid`).
    func consumeReauthentication(_ nonce: String, userID: String) throws {
        guard var record = codes[userID]?[.reauthentication], record.expiresAt > now,
            record.attempts < configuration.maximumCodeAttempts
        else { throw Self.reauthenticationNotValid() }
        record.attempts += 1
        guard record.code == nonce else {
            codes[userID]?[.reauthentication] = record
            throw Self.reauthenticationNotValid()
        }
        codes[userID]?[.reauthentication] = nil
    }

    /// 429 `over_email_send_rate_limit`: another code of the kind went out `wait` seconds too soon.
    static func sendSpacing(_ wait: TimeInterval) -> AuthError {
        let seconds = Int(wait.rounded(.up))
        return AuthError(
            code: .overEmailSendRateLimit,
            message: "For security purposes, you can only request this after \(seconds) seconds.",
            recoverySuggestion: "Wait, then ask for a new code.",
            isRetryable: true,
            httpStatus: 429,
            retryAfter: TimeInterval(seconds)
        )
    }

    /// A guest with no provider identity and no passkey.
    private func hasNoWayIn(_ userID: String) -> Bool {
        guard let account = accounts[userID] else { return false }
        return account.user.isAnonymous && account.identities.isEmpty && (passkeyEntries[userID] ?? []).isEmpty
    }
}
