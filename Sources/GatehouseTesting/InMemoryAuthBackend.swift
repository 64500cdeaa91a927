import Foundation
public import Gatehouse

/// A complete authentication backend that lives in memory, for unit tests, SwiftUI previews
/// and command-line experiments.
///
/// It behaves like a Gatehouse server: hashed passwords, e-mail confirmation codes that tests
/// can read (``lastCode(for:type:)``), guests upgraded in place, refresh-token rotation with a
/// reuse interval and family revocation, logout scopes, bans and deletion. Tests can inject
/// latency, failures (``failNext(_:with:count:)``) and an outage (``setOffline(_:)``), and count
/// calls (``callCount(_:)``).
///
/// ```swift
/// let backend = InMemoryAuthBackend()
/// let auth = AuthService(backend: backend, store: InMemorySessionStore())
/// try await auth.signUp(email: "ada@example.com", password: "correct horse")
/// #expect(await backend.callCount(.signUp) == 1)
/// ```
public actor InMemoryAuthBackend: AuthBackend {
    let configuration: Configuration
    var accounts: [String: AccountRecord] = [:]
    var sessions: [String: SessionRecord] = [:]
    var refreshIndex: [String: String] = [:]
    var accessIndex: [String: AccessRecord] = [:]
    var codes: [String: [VerificationType: CodeRecord]] = [:]
    var identities: [IdentityKey: String] = [:]
    var idTokens: [String: IDTokenClaims] = [:]
    var usedNonces: Set<String> = []
    var sent: [SentCode] = []
    var failures: [Operation: [AuthError]] = [:]
    var offline = false
    var latency: Duration
    var calls: [Operation: Int] = [:]

    /// Creates an empty backend.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.latency = configuration.latency
    }

    var now: Date { configuration.now() }

    // MARK: - AuthBackend

    public func signUp(email: String, password: String, upgrading guest: Session?) async throws -> SignUpOutcome {
        try await enter(.signUp)
        let email = email.lowercased()
        try validate(password: password)
        if let guest {
            let record = try authenticate(guest)
            guard var account = accounts[record.userID] else { throw Self.userNotFound() }
            if let owner = userID(forEmail: email), owner != account.user.id { throw Self.emailExists() }
            account.user.email = email
            account.passwordHash = SaltedHash(password: password)
            if configuration.requiresEmailConfirmation {
                accounts[account.user.id] = account
                issueCode(to: email, type: .signup)
                return .confirmationRequired(account.user)
            }
            account.user.isAnonymous = false
            account.user.emailConfirmedAt = now
            accounts[account.user.id] = account
            return .signedIn(rotateTokens(ofSession: record.sessionID))
        }
        if let existing = userID(forEmail: email), let account = accounts[existing] {
            if account.user.emailConfirmedAt != nil, !configuration.requiresEmailConfirmation {
                throw AuthError(
                    code: .userAlreadyExists,
                    message: "A user with this e-mail address already exists.",
                    recoverySuggestion: "Sign in instead, or reset the password.",
                    httpStatus: 422
                )
            }
            // Like GoTrue: answer as for a new address, so sign-up does not reveal registrations.
            if account.user.emailConfirmedAt == nil { issueCode(to: email, type: .signup) }
            return .confirmationRequired(User(id: UUID().uuidString.lowercased(), email: email, createdAt: now))
        }
        var user = User(id: UUID().uuidString.lowercased(), email: email, createdAt: now)
        user.appMetadata = ["provider": "email", "providers": ["email"]]
        if !configuration.requiresEmailConfirmation { user.emailConfirmedAt = now }
        accounts[user.id] = AccountRecord(user: user, passwordHash: SaltedHash(password: password))
        if configuration.requiresEmailConfirmation {
            issueCode(to: email, type: .signup)
            return .confirmationRequired(user)
        }
        return .signedIn(startSession(for: user.id))
    }

    public func signIn(email: String, password: String) async throws -> Session {
        try await enter(.signIn)
        guard let id = userID(forEmail: email.lowercased()), let account = accounts[id],
            let hash = account.passwordHash, hash.matches(password)
        else { throw AuthError.invalidCredentials() }
        if account.user.emailConfirmedAt == nil {
            throw AuthError(
                code: .emailNotConfirmed,
                message: "The e-mail address is not confirmed yet.",
                recoverySuggestion: "Enter the code sent to your e-mail address.",
                httpStatus: 400
            )
        }
        try checkNotBanned(account)
        return startSession(for: id)
    }

    public func signInAnonymously() async throws -> Session {
        try await enter(.signInAnonymously)
        guard configuration.allowsAnonymousSignIn else {
            throw AuthError(
                code: .anonymousProviderDisabled,
                message: "Guest sign-in is disabled.",
                recoverySuggestion: "Sign up with an e-mail address instead.",
                httpStatus: 422
            )
        }
        let user = User(id: UUID().uuidString.lowercased(), isAnonymous: true, createdAt: now)
        accounts[user.id] = AccountRecord(user: user)
        return startSession(for: user.id)
    }

    public func signIn(with credential: IDTokenCredential, upgrading guest: Session?) async throws -> Session {
        try await enter(.signInWithIDToken)
        guard let claims = idTokens[credential.idToken], claims.provider == credential.provider else {
            throw AuthError(
                code: .validationFailed,
                message: "The \(credential.provider.rawValue) ID token could not be verified.",
                recoverySuggestion: "Sign in with \(credential.provider.rawValue) again.",
                httpStatus: 400
            )
        }
        switch (claims.nonceHash, credential.nonce) {
        case (nil, nil):
            break
        case (let expected?, let raw?) where SaltedHash.sha256Hex(raw) == expected && !usedNonces.contains(raw):
            break
        default:
            throw AuthError.validationFailed("The nonce does not match the ID token, or was already used.")
        }
        let key = IdentityKey(provider: claims.provider.rawValue, subject: claims.subject)
        let userID: String
        if let linked = identities[key] {
            userID = linked
        } else if let guest, let record = try? authenticate(guest), var account = accounts[record.userID],
            account.user.isAnonymous
        {
            account.user.isAnonymous = false
            account.user.email = account.user.email ?? claims.email
            account.identities.append(key)
            accounts[account.user.id] = account
            identities[key] = account.user.id
            userID = account.user.id
        } else if claims.emailVerified, let email = claims.email, let existing = self.userID(forEmail: email) {
            accounts[existing]?.identities.append(key)
            identities[key] = existing
            userID = existing
        } else {
            let user = User(
                id: UUID().uuidString.lowercased(),
                email: claims.email,
                createdAt: now,
                emailConfirmedAt: claims.emailVerified ? now : nil,
                appMetadata: ["provider": .string(claims.provider.rawValue)]
            )
            accounts[user.id] = AccountRecord(user: user, identities: [key])
            identities[key] = user.id
            userID = user.id
        }
        if let raw = credential.nonce { usedNonces.insert(raw) }
        try checkNotBanned(accounts[userID]!)
        return startSession(for: userID)
    }

    public func sendMagicCode(to email: String) async throws {
        try await enter(.sendMagicCode)
        let email = email.lowercased()
        if userID(forEmail: email) == nil {
            var user = User(id: UUID().uuidString.lowercased(), email: email, createdAt: now)
            user.appMetadata = ["provider": "email", "providers": ["email"]]
            accounts[user.id] = AccountRecord(user: user)
        }
        issueCode(to: email, type: .email)
    }

    public func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session {
        try await enter(.verifyCode)
        let email = email.lowercased()
        let expired = AuthError(
            code: .otpExpired,
            message: "The code is wrong or has expired.",
            recoverySuggestion: "Check the code, or request a new one.",
            httpStatus: 403
        )
        let lookupTypes: [VerificationType] = type == .email ? [.email, .signup, .magiclink] : [type]
        guard let matchedType = lookupTypes.first(where: { codes[email]?[$0] != nil }),
            var record = codes[email]?[matchedType], record.expiresAt > now,
            record.attempts < configuration.maximumCodeAttempts
        else { throw expired }
        guard record.code == code else {
            record.attempts += 1
            codes[email]?[matchedType] = record
            throw expired
        }
        codes[email]?[matchedType] = nil
        guard let id = userID(forEmail: email), var account = accounts[id] else { throw expired }
        account.user.emailConfirmedAt = account.user.emailConfirmedAt ?? now
        account.user.isAnonymous = false
        accounts[id] = account
        try checkNotBanned(account)
        return startSession(for: id)
    }

    public func resetPassword(email: String) async throws {
        try await enter(.resetPassword)
        let email = email.lowercased()
        if userID(forEmail: email) != nil { issueCode(to: email, type: .recovery) }
    }

    public func refresh(_ session: Session) async throws -> Session {
        try await enter(.refresh)
        let token = session.refreshToken
        guard let sessionID = refreshIndex[token], let record = sessions[sessionID] else {
            throw AuthError(
                code: .refreshTokenNotFound,
                message: "Invalid Refresh Token: Refresh Token Not Found",
                recoverySuggestion: "Sign in again.",
                httpStatus: 400
            )
        }
        guard let account = accounts[record.userID] else { throw Self.userNotFound() }
        try checkNotBanned(account)
        if token == record.currentRefreshToken {
            return rotateTokens(ofSession: sessionID)
        }
        let rotatedAt = record.rotatedAt[token] ?? .distantPast
        if token == record.parentRefreshToken || now.timeIntervalSince(rotatedAt) <= configuration.reuseInterval {
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

    public func user(for session: Session) async throws -> User {
        try await enter(.user)
        let record = try authenticate(session)
        guard let account = accounts[record.userID] else { throw Self.userNotFound() }
        return account.user
    }

    public func updateUser(_ changes: UserChanges, for session: Session) async throws -> User {
        try await enter(.updateUser)
        let record = try authenticate(session)
        guard var account = accounts[record.userID] else { throw Self.userNotFound() }
        if let email = changes.email?.lowercased() {
            if let owner = userID(forEmail: email), owner != account.user.id { throw Self.emailExists() }
            account.user.email = email
        }
        if let password = changes.password {
            try validate(password: password)
            account.passwordHash = SaltedHash(password: password)
        }
        if let data = changes.data {
            account.user.userMetadata.merge(data) { _, new in new }
        }
        if account.user.isAnonymous, account.user.email != nil, account.passwordHash != nil {
            account.user.isAnonymous = false
            account.user.emailConfirmedAt = now
        }
        accounts[account.user.id] = account
        return account.user
    }

    public func deleteAccount(_ session: Session) async throws {
        try await enter(.deleteAccount)
        let record = try authenticate(session)
        removeUser(id: record.userID)
    }

    public func signOut(_ session: Session, scope: LogoutScope) async throws {
        try await enter(.signOut)
        let record = try authenticate(session)
        switch scope {
        case .local: endSessions { $0.id == record.sessionID }
        case .global: endSessions { $0.userID == record.userID }
        case .others: endSessions { $0.userID == record.userID && $0.id != record.sessionID }
        }
    }
}
