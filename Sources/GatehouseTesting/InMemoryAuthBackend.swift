import Foundation
public import Gatehouse

/// A complete authentication backend that lives in memory, for unit tests, SwiftUI previews
/// and command-line experiments.
///
/// It follows the same contract as a Gatehouse server reached through `GoTrueBackend` (one
/// behaviour suite, `CLI/Tests/EndToEndTests/Contract`, runs against both): hashed passwords,
/// e-mail codes that tests can read (``lastCode(for:type:)``; reauthentication codes of
/// ``reauthenticate(for:)`` too, which the sensitive actions take as `nonce` more than 10 minutes
/// after a sign-in: move ``Configuration/now`` on with a `ManualClock`), sign-ups confirmed by a code
/// unless ``Configuration/requiresEmailConfirmation`` is off (a repeated sign-up of an address
/// pending another sign-up's password contests it: no code proves either password, and proving
/// the address drops the pending one; proof by any other code drops it too), guests' addresses pending
/// in `User.newEmail` until an `email_change` code confirms them, e-mail changes confirmed by
/// codes to both addresses, password and address changes ending the other sessions, refresh-token rotation with a reuse interval
/// and family revocation, logout scopes, ID tokens with single-use nonces
/// (``makeIDToken(provider:subject:email:emailVerified:nonce:nonceUnhashed:)``) and the server's linking
/// rules, passkeys (verified signatures of `SoftwarePasskeyAuthenticator`'s credentials, guests
/// upgraded in place), bans and deletion. Tests can inject latency, failures (``failNext(_:with:count:)``)
/// and an outage (``setOffline(_:)``), and count calls (``callCount(_:)``).
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
    /// Sessions opened so far: orders sessions signed in at the same instant of a manual clock.
    var sessionsOpened = 0
    var refreshIndex: [String: String] = [:]
    var accessIndex: [String: AccessRecord] = [:]
    /// Pending codes by user id and purpose.
    var codes: [String: [VerificationType: CodeRecord]] = [:]
    var identities: [IdentityKey: String] = [:]
    /// Second factors by user id.
    var factors: [String: [FactorEntry]] = [:]
    /// Factor challenges by id.
    var challenges: [String: ChallengeEntry] = [:]
    var idTokens: [String: IDTokenClaims] = [:]
    /// Passkeys by user id, oldest first.
    var passkeyEntries: [String: [PasskeyEntry]] = [:]
    /// Passkey ceremony challenges by id.
    var passkeyChallenges: [String: PasskeyChallengeEntry] = [:]
    var usedNonces: Set<String> = []
    /// Sign-ins through a simulated provider's page, waiting for its consent, by flow id.
    var providerFlows: [String: ProviderFlowRecord] = [:]
    /// Codes of consented sign-ins, waiting for their exchange, by code.
    var authCodes: [String: AuthCodeRecord] = [:]
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
        if let guest {
            // As `GoTrueBackend` does: the guest's own update, then a refresh once it is permanent.
            let record = try authenticate(guest)
            let user = try applyChanges(
                UserChanges(email: email, password: password),
                toUser: record.userID,
                session: record.sessionID
            )
            if user.isAnonymous { return .confirmationRequired(user) }
            return .signedIn(try exchange(guest.refreshToken))
        }
        let email = try normalized(email)
        try validate(password: password, email: email)
        if let existing = userID(forEmail: email), var account = accounts[existing] {
            if account.user.emailConfirmedAt != nil {
                if !configuration.requiresEmailConfirmation {
                    throw AuthError(
                        code: .userAlreadyExists,
                        message: "A user with this e-mail address already exists.",
                        recoverySuggestion: "Sign in instead, or reset the password.",
                        httpStatus: 422
                    )
                }
                // Like the server: answer as for a new address and send nothing, so sign-up does
                // not reveal who is registered.
                var lookalike = User(id: UUID().uuidString.lowercased(), email: email, createdAt: now)
                lookalike.appMetadata = ["provider": "email", "providers": ["email"]]
                return .confirmationRequired(lookalike)
            }
            // An unproven address: the first sign-up's password is pending; a second sign-up
            // contests it, and then no code proves either (the address only). Either way the
            // answer is a look-alike, as for a confirmed address.
            let contested = account.passwordHash != nil
            if !contested { account.passwordHash = SaltedHash(password: password) }
            accounts[existing] = account
            let code = issueCode(to: email, forUser: existing, type: .signup)
            accounts[existing]?.passwordCode = contested ? nil : code
            var lookalike = User(id: UUID().uuidString.lowercased(), email: email, createdAt: now)
            lookalike.appMetadata = ["provider": "email", "providers": ["email"]]
            return .confirmationRequired(lookalike)
        }
        var user = User(id: UUID().uuidString.lowercased(), email: email, createdAt: now)
        user.appMetadata = ["provider": "email", "providers": ["email"]]
        if !configuration.requiresEmailConfirmation { user.emailConfirmedAt = now }
        accounts[user.id] = AccountRecord(user: user, passwordHash: SaltedHash(password: password))
        if configuration.requiresEmailConfirmation {
            accounts[user.id]?.passwordCode = issueCode(to: email, forUser: user.id, type: .signup)
            return .confirmationRequired(user)
        }
        return .signedIn(startSession(for: user.id))
    }

    public func signIn(email: String, password: String) async throws -> Session {
        try await enter(.signIn)
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let id = userID(forEmail: email), let account = accounts[id],
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
        return startSession(for: user.id, method: "anonymous")
    }

    public func refresh(_ session: Session) async throws -> Session {
        try await enter(.refresh)
        return try exchange(session.refreshToken)
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
        let account = accounts[record.userID]
        if changes.password != nil || (changes.email.map { $0.lowercased() != account?.user.email } ?? false) {
            // The current password stands in for a recent sign-in, as on the server.
            let provesPassword =
                changes.email == nil
                && changes.currentPassword.map { account?.passwordHash?.matches($0) == true } == true
            try authorizeSensitive(
                "change the e-mail address or password",
                record,
                nonce: changes.nonce,
                needsRecentSignIn: !provesPassword
            )
        } else if let nonce = changes.nonce {
            // As on the server, a code is checked whenever one is sent.
            try consumeReauthentication(nonce, userID: record.userID)
        }
        return try applyChanges(changes, toUser: record.userID, session: record.sessionID)
    }

    public func deleteAccount(_ session: Session) async throws {
        try await deleteAccount(session, nonce: nil)
    }

    public func deleteAccount(_ session: Session, nonce: String?) async throws {
        try await enter(.deleteAccount)
        let record = try authenticate(session)
        try authorizeSensitive("delete the account", record, nonce: nonce)
        removeUser(id: record.userID)
    }

    public func signOut(_ session: Session, scope: LogoutScope) async throws {
        try await signOut(session, scope: scope, nonce: nil)
    }

    /// Ends sessions; `others` and `global` are a sensitive action. A session already gone is
    /// what `local` and `global` want; for `others` it is an error (as `GoTrueBackend`).
    public func signOut(_ session: Session, scope: LogoutScope, nonce: String?) async throws {
        try await enter(.signOut)
        let record: AccessRecord
        do {
            record = try authenticate(session)
        } catch let error as AuthError where scope != .others && [401, 403, 404].contains(error.httpStatus) {
            // The session is already gone: that is what signing out wants (as `GoTrueBackend`).
            return
        }
        if scope != .local {
            do {
                try authorizeSensitive("sign out the account's other sessions", record, nonce: nonce, aalStatus: 422)
            } catch {
                // As on the server: a sign-out never leaves its own session behind.
                if scope == .global { endSessions { $0.id == record.sessionID } }
                throw error
            }
        }
        switch scope {
        case .local: endSessions { $0.id == record.sessionID }
        case .global: endSessions { $0.userID == record.userID }
        case .others: endSessions { $0.userID == record.userID && $0.id != record.sessionID }
        }
    }
}
