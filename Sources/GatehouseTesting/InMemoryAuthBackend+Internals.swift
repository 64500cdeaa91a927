import Foundation
import Gatehouse

extension InMemoryAuthBackend {
    /// Counts the call, applies latency, an outage or a queued failure.
    func enter(_ operation: Operation) async throws {
        calls[operation, default: 0] += 1
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

    func validate(password: String) throws {
        guard password.count >= configuration.minimumPasswordLength else {
            throw AuthError(
                code: .weakPassword,
                message: "Password should be at least \(configuration.minimumPasswordLength) characters.",
                recoverySuggestion: "Choose a longer password.",
                httpStatus: 422
            )
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
        guard sessions[access.sessionID] != nil else {
            throw AuthError(
                code: .sessionNotFound,
                message: "Session from session_id claim in JWT does not exist.",
                recoverySuggestion: "Sign in again.",
                httpStatus: 403
            )
        }
        guard accounts[access.userID] != nil else { throw Self.userNotFound() }
        return access
    }

    func startSession(for userID: String) -> Session {
        let id = UUID().uuidString.lowercased()
        let token = Self.randomToken()
        sessions[id] = SessionRecord(id: id, userID: userID, currentRefreshToken: token)
        refreshIndex[token] = id
        accounts[userID]?.user.lastSignInAt = now
        return makeSession(sessionID: id, refreshToken: token)
    }

    func rotateTokens(ofSession id: String) -> Session {
        guard var record = sessions[id] else { preconditionFailure("rotating a missing session") }
        let next = Self.randomToken()
        record.rotatedAt[record.currentRefreshToken] = now
        record.parentRefreshToken = record.currentRefreshToken
        record.currentRefreshToken = next
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
            user: accounts[record.userID]!.user
        )
    }

    func endSessions(where predicate: (SessionRecord) -> Bool) {
        for record in sessions.values where predicate(record) {
            sessions[record.id] = nil
            refreshIndex = refreshIndex.filter { $0.value != record.id }
            accessIndex = accessIndex.filter { $0.value.sessionID != record.id }
        }
    }

    func removeUser(id: String) {
        endSessions { $0.userID == id }
        if let email = accounts[id]?.user.email { codes[email] = nil }
        identities = identities.filter { $0.value != id }
        accounts[id] = nil
    }

    func issueCode(to email: String, type: VerificationType) {
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        codes[email, default: [:]][type] = CodeRecord(
            code: code,
            expiresAt: now.addingTimeInterval(configuration.codeLifetime)
        )
        sent.append(SentCode(email: email, code: code, type: type, sentAt: now))
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

    static func emailExists() -> AuthError {
        AuthError(
            code: .emailExists,
            message: "A user with this e-mail address has already been registered.",
            recoverySuggestion: "Sign in to that account instead.",
            httpStatus: 422
        )
    }
}
