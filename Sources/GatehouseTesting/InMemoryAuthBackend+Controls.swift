public import Foundation
public import Gatehouse

/// What tests and previews use to set up, inspect and disturb the backend.
extension InMemoryAuthBackend {
    /// Creates a confirmed user with a password, for previews and test setup.
    @discardableResult
    public func seedUser(email: String, password: String, metadata: [String: JSONValue] = [:]) -> User {
        var user = User(
            id: UUID().uuidString.lowercased(),
            email: email.lowercased(),
            createdAt: now,
            emailConfirmedAt: now,
            appMetadata: ["provider": "email", "providers": ["email"]],
            userMetadata: metadata
        )
        user.lastSignInAt = nil
        accounts[user.id] = AccountRecord(user: user, passwordHash: SaltedHash(password: password))
        return user
    }

    /// The newest code e-mailed to an address, optionally of one type: a reauthentication code
    /// of ``reauthenticate(for:)`` is `VerificationType.reauthentication`.
    public func lastCode(for email: String, type: VerificationType? = nil) -> String? {
        sent.last(where: { $0.email == email.lowercased() && (type == nil || $0.type == type) })?.code
    }

    /// Every code "e-mailed" so far, oldest first.
    public var sentCodes: [SentCode] { sent }

    /// Registers a fake ID token that ``signIn(with:upgrading:)`` accepts once per nonce.
    ///
    /// - Parameters:
    ///   - provider: The provider the token claims to come from.
    ///   - subject: The provider's id for the user (`sub`).
    ///   - email: The address the token carries, if any.
    ///   - emailVerified: Whether the provider vouches for `email` (Apple: verified; Google:
    ///     verified and Gmail or a Workspace domain). Only a vouched address is stored or links
    ///     to an existing account; an unvouched one that an account uses is `email_exists`.
    ///   - nonce: The raw nonce the client will send; the token records its SHA-256. As on the
    ///     server, a sign-in needs one: without it, or with another, or a second time, the answer
    ///     is `id_token_nonce_invalid`.
    ///   - nonceUnhashed: Whether the token carries `nonce` itself instead of its SHA-256, as
    ///     GoogleSignIn's tokens do; the server accepts that form for Google only.
    public func makeIDToken(
        provider: IDTokenCredential.Provider,
        subject: String,
        email: String? = nil,
        emailVerified: Bool = true,
        nonce: String? = nil,
        nonceUnhashed: Bool = false
    ) -> String {
        let token = "\(provider.rawValue)-id-token-\(Self.randomToken())"
        idTokens[token] = IDTokenClaims(
            provider: provider.rawValue,
            subject: subject,
            email: email?.lowercased(),
            emailVerified: emailVerified,
            nonce: nonceUnhashed ? nonce : nonce.map(SaltedHash.sha256Hex)
        )
        return token
    }

    /// How many times an operation was called.
    public func callCount(_ operation: Operation) -> Int { calls[operation, default: 0] }

    /// Makes the next `count` calls of `operation` throw `error`.
    public func failNext(_ operation: Operation, with error: AuthError, count: Int = 1) {
        failures[operation, default: []].append(contentsOf: repeatElement(error, count: count))
    }

    /// While offline, every call throws `ErrorCode.networkUnavailable`.
    public func setOffline(_ offline: Bool) { self.offline = offline }

    /// Makes every call take `latency`.
    public func setLatency(_ latency: Duration) { self.latency = latency }

    /// Ends every session of a user on the "server" (as an admin or a password change would).
    public func revokeSessions(ofUser id: String) { endSessions { $0.userID == id } }

    /// Deletes a user and everything that names it.
    public func deleteUser(id: String) { removeUser(id: id) }

    /// Bans a user until `date` and ends the user's sessions.
    public func banUser(id: String, until date: Date) {
        accounts[id]?.bannedUntil = date
        endSessions { $0.userID == id }
    }

    /// The user with this id, if it exists.
    public func user(id: String) -> User? { accounts[id]?.user }

    /// How many sessions of a user are live.
    public func liveSessionCount(ofUser id: String) -> Int {
        sessions.values.filter { $0.userID == id }.count
    }
}
