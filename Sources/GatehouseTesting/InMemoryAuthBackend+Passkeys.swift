public import Foundation
public import Gatehouse

/// Passkeys with the server's rules: off without an RP id (`passkey_disabled`); challenges of
/// 32 random bytes that last five minutes and are used up by their first verify attempt,
/// bound to their ceremony and user; credentials verified (client data, RP id, user presence
/// and verification, signatures: `InMemoryRelyingParty`); at most 10 passkeys per account; an
/// account that can already sign in needs a sign-in within 10 minutes to add, rename or remove
/// one and an AAL2 session when it has a verified factor (the table of sensitive actions,
/// ``authorizeSensitive(_:_:nonce:needsRecentSignIn:aalStatus:)``); a guest that registers one becomes permanent in place (same
/// id, `passkey` among its session's methods); a sign-in checks the user handle, the backup
/// eligibility and the signature counter, and its session's method is `passkey`; the account's
/// last way to sign in cannot be removed (`single_identity_not_deletable`).
extension InMemoryAuthBackend: PasskeyBackend {
    static let maximumPasskeys = 10
    static let passkeyChallengeLifetime: TimeInterval = 300

    public func passkeyRegistrationRequest(
        for session: Session,
        nonce: String?
    ) async throws -> PasskeyRegistrationRequest {
        try await enter(.passkeyRegistrationRequest)
        let party = try relyingParty()
        let access = try authenticate(session)
        try authorizeSensitive("add a passkey", access, nonce: nonce)
        guard let account = accounts[access.userID] else { throw Self.userNotFound() }
        let existing = passkeyEntries[access.userID] ?? []
        guard existing.count < Self.maximumPasskeys else { throw Self.tooManyPasskeys() }
        let (id, challenge) = issuePasskeyChallenge(.registration, userID: access.userID)
        return PasskeyRegistrationRequest(
            challengeID: id,
            relyingPartyID: party.id,
            relyingPartyName: "Gatehouse",
            userID: Data(access.userID.utf8),
            userName: account.user.email ?? access.userID,
            challenge: challenge.challenge,
            excludedCredentialIDs: existing.map(\.credentialID),
            expiresAt: challenge.expiresAt
        )
    }

    public func registerPasskey(
        _ credential: PasskeyRegistrationCredential,
        for request: PasskeyRegistrationRequest,
        name: String?,
        session: Session
    ) async throws -> Passkey {
        try await enter(.registerPasskey)
        let party = try relyingParty()
        let access = try authenticate(session)
        try requireAAL2(access, for: "add a passkey")
        let challenge = try consumePasskeyChallenge(request.challengeID, kind: .registration, userID: access.userID)
        let registration = try party.verifyRegistration(credential, challenge: challenge)
        let name = try Self.passkeyName(name) ?? "Passkey"
        guard var account = accounts[access.userID] else { throw Self.userNotFound() }
        guard (passkeyEntries[access.userID] ?? []).count < Self.maximumPasskeys else { throw Self.tooManyPasskeys() }
        guard !passkeyEntries.values.joined().contains(where: { $0.credentialID == registration.credentialID }) else {
            throw AuthError(
                code: .webAuthnCredentialExists,
                message: "This passkey is registered already.",
                recoverySuggestion: "Sign in with it instead.",
                httpStatus: 422
            )
        }
        let entry = PasskeyEntry(
            id: UUID(),
            credentialID: registration.credentialID,
            key: registration.publicKey,
            signCount: registration.signCount,
            backupEligible: registration.backupEligible,
            backedUp: registration.backedUp,
            name: name,
            createdAt: now
        )
        passkeyEntries[access.userID, default: []].append(entry)
        if account.user.isAnonymous {
            account.user.isAnonymous = false
            account.user.appMetadata["provider"] = "passkey"
            account.user.appMetadata["providers"] = ["passkey"]
            accounts[access.userID] = account
            sessions[access.sessionID]?.methods.insert("passkey", at: 0)
        }
        return entry.passkey
    }

    public func passkeyAssertionRequest() async throws -> PasskeyAssertionRequest {
        try await enter(.passkeyAssertionRequest)
        let party = try relyingParty()
        let (id, challenge) = issuePasskeyChallenge(.authentication, userID: nil)
        return PasskeyAssertionRequest(
            challengeID: id,
            relyingPartyID: party.id,
            challenge: challenge.challenge,
            expiresAt: challenge.expiresAt
        )
    }

    public func signIn(
        with credential: PasskeyAssertionCredential,
        for request: PasskeyAssertionRequest
    ) async throws -> Session {
        try await enter(.signInWithPasskey)
        let party = try relyingParty()
        let challenge = try consumePasskeyChallenge(request.challengeID, kind: .authentication, userID: nil)
        guard
            let (userID, index) = passkeyEntries.lazy.compactMap({ owner, entries in
                entries.firstIndex { $0.credentialID == credential.credentialID }.map { (owner, $0) }
            }).first
        else {
            throw AuthError(
                code: .webAuthnCredentialNotFound,
                message: "This passkey is not registered here (it may have been removed).",
                recoverySuggestion: "Sign in another way, or register the passkey again.",
                httpStatus: 400
            )
        }
        var entry = passkeyEntries[userID]![index]
        guard credential.userHandle == Data(userID.utf8) else {
            throw InMemoryRelyingParty.refusal("the user handle does not name the passkey's owner")
        }
        let assertion = try party.verifyAssertion(credential, challenge: challenge, key: entry.key)
        guard assertion.backupEligible == entry.backupEligible else {
            throw InMemoryRelyingParty.refusal("the passkey's backup eligibility changed")
        }
        if assertion.signCount != 0 || entry.signCount != 0, assertion.signCount <= entry.signCount {
            throw InMemoryRelyingParty.refusal(
                "the signature counter did not grow, as if the authenticator were cloned"
            )
        }
        guard let account = accounts[userID] else { throw AuthError.invalidCredentials() }
        try checkNotBanned(account)
        if account.user.email != nil, account.user.emailConfirmedAt == nil, !account.user.isAnonymous {
            throw AuthError(
                code: .emailNotConfirmed,
                message: "The e-mail address is not confirmed yet.",
                recoverySuggestion: "Enter the code sent to your e-mail address.",
                httpStatus: 400
            )
        }
        entry.signCount = assertion.signCount
        entry.backedUp = assertion.backedUp
        entry.lastUsedAt = now
        passkeyEntries[userID]![index] = entry
        return startSession(for: userID, method: "passkey")
    }

    public func passkeys(for session: Session) async throws -> [Passkey] {
        try await enter(.passkeys)
        let access = try authenticate(session)
        return (passkeyEntries[access.userID] ?? []).map(\.passkey)
    }

    public func renamePasskey(_ id: UUID, to name: String, session: Session) async throws -> Passkey {
        try await renamePasskey(id, to: name, nonce: nil, session: session)
    }

    public func renamePasskey(_ id: UUID, to name: String, nonce: String?, session: Session) async throws -> Passkey {
        try await enter(.renamePasskey)
        let access = try authenticate(session)
        guard let name = try Self.passkeyName(name) else { throw Self.passkeyNameInvalid() }
        try authorizeSensitive("rename a passkey", access, nonce: nonce)
        guard let index = passkeyEntries[access.userID]?.firstIndex(where: { $0.id == id }) else {
            throw Self.passkeyNotFound()
        }
        passkeyEntries[access.userID]![index].name = name
        return passkeyEntries[access.userID]![index].passkey
    }

    public func removePasskey(_ id: UUID, session: Session) async throws {
        try await removePasskey(id, nonce: nil, session: session)
    }

    public func removePasskey(_ id: UUID, nonce: String?, session: Session) async throws {
        try await enter(.removePasskey)
        let access = try authenticate(session)
        try authorizeSensitive("remove a passkey", access, nonce: nonce)
        guard let account = accounts[access.userID] else { throw Self.userNotFound() }
        let entries = passkeyEntries[access.userID] ?? []
        guard entries.contains(where: { $0.id == id }) else { throw Self.passkeyNotFound() }
        let user = account.user
        let hasEmailIdentity =
            user.email != nil && !user.isAnonymous && (account.passwordHash != nil || account.identities.isEmpty)
        guard entries.count - 1 + account.identities.count + (hasEmailIdentity ? 1 : 0) > 0 else {
            throw AuthError(
                code: .singleIdentityNotDeletable,
                message: "This passkey is the account's only way to sign in; add another before removing it.",
                recoverySuggestion: "Link another sign-in method before removing this one.",
                httpStatus: 422
            )
        }
        passkeyEntries[access.userID]?.removeAll { $0.id == id }
    }

    /// How many passkeys a user has, for tests.
    public func passkeyCount(ofUser id: String) -> Int { passkeyEntries[id]?.count ?? 0 }

    // MARK: - Rules

    private func relyingParty() throws -> InMemoryRelyingParty {
        guard let id = configuration.passkeyRelyingPartyID else {
            throw AuthError(
                code: .passkeyDisabled,
                message: "Passkeys are not enabled on this server.",
                recoverySuggestion: "Use another sign-in method.",
                httpStatus: 404
            )
        }
        let origins = configuration.passkeyOrigins.isEmpty ? ["https://\(id)"] : configuration.passkeyOrigins
        return InMemoryRelyingParty(id: id, origins: origins)
    }

    private func issuePasskeyChallenge(
        _ kind: PasskeyChallengeEntry.Kind,
        userID: String?
    ) -> (id: String, entry: PasskeyChallengeEntry) {
        let now = now
        passkeyChallenges = passkeyChallenges.filter { $0.value.expiresAt > now }
        var generator = SystemRandomNumberGenerator()
        let entry = PasskeyChallengeEntry(
            kind: kind,
            userID: userID,
            challenge: Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            expiresAt: now.addingTimeInterval(Self.passkeyChallengeLifetime)
        )
        let id = UUID().uuidString.lowercased()
        passkeyChallenges[id] = entry
        return (id, entry)
    }

    /// Uses up the challenge `id` names, whatever the verification's outcome.
    private func consumePasskeyChallenge(
        _ id: String,
        kind: PasskeyChallengeEntry.Kind,
        userID: String?
    ) throws -> Data {
        guard !id.isEmpty else {
            throw AuthError(code: .validationFailed, message: "challenge_id is required", httpStatus: 400)
        }
        guard let entry = passkeyChallenges[id.lowercased()], entry.kind == kind, entry.userID == userID else {
            throw AuthError(
                code: .webAuthnChallengeNotFound,
                message: "Challenge not found or already used: request new options.",
                recoverySuggestion: "Start the passkey request again.",
                httpStatus: 400
            )
        }
        passkeyChallenges[id.lowercased()] = nil
        guard entry.expiresAt > now else {
            throw AuthError(
                code: .webAuthnChallengeExpired,
                message: "Challenge has expired: request new options.",
                recoverySuggestion: "Start the passkey request again.",
                httpStatus: 400
            )
        }
        return entry.challenge
    }

    /// A passkey name: trimmed, 1 to 120 characters, no control characters; `nil` when not given.
    private static func passkeyName(_ name: String?) throws -> String? {
        guard let name else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 120,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw passkeyNameInvalid() }
        return trimmed
    }

    private static func passkeyNameInvalid() -> AuthError {
        AuthError(
            code: .validationFailed,
            message: "friendly_name must have 1 to 120 characters and no control characters",
            recoverySuggestion: "Choose another name.",
            httpStatus: 400
        )
    }

    private static func passkeyNotFound() -> AuthError {
        AuthError(
            code: .webAuthnCredentialNotFound,
            message: "Passkey not found",
            recoverySuggestion: "List the passkeys again.",
            httpStatus: 404
        )
    }

    private static func tooManyPasskeys() -> AuthError {
        AuthError(
            code: .tooManyPasskeys,
            message: "This account has \(maximumPasskeys) passkeys, the most it may have: remove one first.",
            recoverySuggestion: "Remove a passkey first.",
            httpStatus: 422
        )
    }
}
