import Foundation
import Gatehouse

extension InMemoryAuthBackend {
    /// Counts the call, applies latency, an outage or a queued failure.
    func enter(_ operation: Operation) async throws {
        calls[operation, default: 0] += 1
        purgeLapsedFactors()
        if latency > .zero { try await Task.sleep(for: latency) }
        if offline { throw AuthError.networkUnavailable(underlying: "InMemoryAuthBackend is offline") }
        if var queue = failures[operation], !queue.isEmpty {
            let failure = queue.removeFirst()
            failures[operation] = queue
            throw failure
        }
    }

    func userID(forEmail email: String) -> String? {
        accounts.values.first { $0.user.email?.lowercased() == email.lowercased() }?.user.id
    }

    /// The trimmed, lowercased address, or `validation_failed` when it is not one (the server's check).
    func normalized(_ raw: String) throws -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.contains(where: { $0.isWhitespace || $0 == "\0" })
        else {
            throw AuthError(
                code: .validationFailed,
                message: "Unable to validate email address: invalid format.",
                recoverySuggestion: "Check the e-mail address.",
                httpStatus: 400
            )
        }
        return email
    }

    /// The server's password rules, without its list of common passwords.
    func validate(password: String, email: String?) throws {
        func weak(_ message: String, _ suggestion: String) -> AuthError {
            AuthError(code: .weakPassword, message: message, recoverySuggestion: suggestion, httpStatus: 422)
        }
        if password.utf8.contains(0) {
            throw AuthError(
                code: .validationFailed,
                message: "Password must not contain a NUL character.",
                httpStatus: 422
            )
        }
        if password.count < configuration.minimumPasswordLength {
            throw weak(
                "Password should be at least \(configuration.minimumPasswordLength) characters.",
                "Choose a longer password."
            )
        }
        if password.utf8.count > 72 {
            throw weak("Password cannot be longer than 72 bytes.", "Choose a shorter password.")
        }
        if let local = email?.split(separator: "@").first?.lowercased(), local.count >= 3,
            password.lowercased() == local
        {
            throw weak("Password must not be your e-mail address.", "Choose another password.")
        }
    }

    func checkNotBanned(_ account: AccountRecord) throws {
        if let until = account.bannedUntil, until > now {
            throw AuthError(
                code: .userBanned,
                message: "User is banned.",
                recoverySuggestion: "Contact support.",
                httpStatus: 400
            )
        }
    }

    /// The live session behind a session's access token.
    func authenticate(_ session: Session) throws -> AccessRecord {
        guard let access = accessIndex[session.accessToken], access.expiresAt > now else {
            throw AuthError(
                code: .badJWT,
                message: "Invalid JWT: the token is expired or unknown.",
                recoverySuggestion: "Refresh the session.",
                httpStatus: 403
            )
        }
        guard let record = sessions[access.sessionID], record.userID == access.userID else {
            throw AuthError(
                code: .sessionNotFound,
                message: "Session from session_id claim in JWT does not exist.",
                recoverySuggestion: "Sign in again.",
                httpStatus: 403
            )
        }
        guard let account = accounts[access.userID] else { throw Self.userNotFound() }
        if let until = account.bannedUntil, until > now {
            throw AuthError(
                code: .userBanned,
                message: "User is banned.",
                recoverySuggestion: "Contact support.",
                httpStatus: 403
            )
        }
        return access
    }

    /// Opens a session signed in by `method`, labelled with the sign-in's ``SignInDevice/name``.
    func startSession(for userID: String, method: String = "password") -> Session {
        let id = UUID().uuidString.lowercased()
        let token = Self.randomToken()
        sessionsOpened += 1
        sessions[id] = SessionRecord(
            id: id,
            userID: userID,
            currentRefreshToken: token,
            device: SignInDevice.name,
            createdAt: now,
            refreshedAt: now,
            authenticatedAt: now,
            methods: [method],
            sequence: sessionsOpened
        )
        refreshIndex[token] = id
        accounts[userID]?.user.lastSignInAt = now
        return makeSession(sessionID: id, refreshToken: token)
    }

    /// The refresh-token grant: the current token rotates; the direct parent, or an older token
    /// within the reuse interval of the last rotation, gets the current token; any other reuse
    /// ends the session.
    func exchange(_ token: String) throws -> Session {
        guard let sessionID = refreshIndex[token], let record = sessions[sessionID] else {
            throw AuthError(
                code: .refreshTokenNotFound,
                message: "Invalid Refresh Token: Refresh Token Not Found",
                recoverySuggestion: "Sign in again.",
                httpStatus: 400
            )
        }
        guard let account = accounts[record.userID] else { throw Self.userNotFound() }
        if let until = account.bannedUntil, until > now {
            endSessions { $0.userID == record.userID }
            try checkNotBanned(account)
        }
        if token == record.currentRefreshToken {
            return rotateTokens(ofSession: sessionID)
        }
        let withinReuse = record.lastRotatedAt.map { now.timeIntervalSince($0) <= configuration.reuseInterval } ?? false
        if token == record.parentRefreshToken || withinReuse {
            return makeSession(sessionID: sessionID, refreshToken: record.currentRefreshToken)
        }
        endSessions { $0.id == sessionID }
        throw AuthError(
            code: .refreshTokenAlreadyUsed,
            message: "Invalid Refresh Token: Already Used",
            recoverySuggestion: "Sign in again.",
            httpStatus: 400
        )
    }

    func rotateTokens(ofSession id: String) -> Session {
        guard var record = sessions[id] else { preconditionFailure("rotating a missing session") }
        let next = Self.randomToken()
        record.parentRefreshToken = record.currentRefreshToken
        record.currentRefreshToken = next
        record.lastRotatedAt = now
        record.refreshedAt = now
        sessions[id] = record
        refreshIndex[next] = id
        return makeSession(sessionID: id, refreshToken: next)
    }

    func makeSession(sessionID: String, refreshToken: String) -> Session {
        let record = sessions[sessionID]!
        let access = Self.randomToken()
        let expiresAt = now.addingTimeInterval(configuration.accessTokenLifetime)
        accessIndex[access] = AccessRecord(sessionID: sessionID, userID: record.userID, expiresAt: expiresAt)
        return Session(
            accessToken: access,
            refreshToken: refreshToken,
            expiresAt: expiresAt,
            user: accounts[record.userID]!.user,
            aal: record.aal
        )
    }

    /// Ends sessions: their refresh tokens are forgotten, and their access tokens, still valid
    /// JWTs on a server, now name a session that does not exist.
    func endSessions(where predicate: (SessionRecord) -> Bool) {
        let ended = Set(sessions.values.filter(predicate).map(\.id))
        guard !ended.isEmpty else { return }
        for id in ended { sessions[id] = nil }
        refreshIndex = refreshIndex.filter { !ended.contains($0.value) }
    }

    func removeUser(id: String) {
        endSessions { $0.userID == id }
        codes[id] = nil
        factors[id] = nil
        challenges = challenges.filter { $0.value.userID != id }
        identities = identities.filter { $0.value != id }
        passkeyEntries[id] = nil
        passkeyChallenges = passkeyChallenges.filter { $0.value.userID != id }
        accounts[id] = nil
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    static func userNotFound() -> AuthError {
        AuthError(
            code: .userNotFound,
            message: "User from sub claim in JWT does not exist.",
            recoverySuggestion: "Sign in again.",
            httpStatus: 403
        )
    }

    /// A reauthentication `nonce` that is wrong, used, expired or out of tries, refused as the
    /// server refuses one.
    static func reauthenticationNotValid() -> AuthError {
        AuthError(
            code: .reauthenticationNotValid,
            message: "The reauthentication code is wrong or has expired.",
            recoverySuggestion: "Request a new code.",
            httpStatus: 422
        )
    }

    static func emailExists() -> AuthError {
        AuthError(
            code: .emailExists,
            message: "A user with this e-mail address has already been registered.",
            recoverySuggestion: "Sign in to that account instead.",
            httpStatus: 422
        )
    }
}
