import Foundation
public import Gatehouse

/// Sign in with Apple or Google, with the server's rules: a required nonce that works once
/// (and only on success), one identity per provider subject, linking by e-mail only when the
/// provider vouches for the address, guests upgraded in place or moved to the account that
/// already has the identity, `identity_already_exists` for a subject another account holds;
/// linking is a sensitive action (``authorizeSensitive(_:_:nonce:needsRecentSignIn:aalStatus:)``).
extension InMemoryAuthBackend {
    public func signIn(with credential: IDTokenCredential, upgrading caller: Session?) async throws -> Session {
        try await signIn(with: credential, linkingTo: caller, nonce: nil)
    }

    /// Links the identity to the caller's user; a reauthentication code is `nonce` here (the
    /// server's `reauthentication_nonce`).
    public func linkIdentity(
        _ credential: IDTokenCredential,
        nonce: String?,
        for session: Session
    ) async throws -> Session {
        try await signIn(with: credential, linkingTo: session, nonce: nonce)
    }

    private func signIn(
        with credential: IDTokenCredential,
        linkingTo caller: Session?,
        nonce reauthenticationNonce: String?
    ) async throws -> Session {
        try await enter(.signInWithIDToken)
        // The caller's session is checked first, as the server checks the bearer of a link request.
        let access = try caller.map(authenticate)
        if let access { try authorizeSensitive("link another sign-in provider", access, nonce: reauthenticationNonce) }
        let linking = access?.userID
        guard let claims = idTokens[credential.idToken], claims.provider == credential.provider.rawValue else {
            throw AuthError(
                code: .idTokenInvalid,
                message: "The \(credential.provider.rawValue) ID token could not be verified.",
                recoverySuggestion: "Sign in with \(credential.provider.rawValue) again.",
                httpStatus: 400
            )
        }
        guard let raw = credential.nonce, !raw.isEmpty else {
            throw Self.nonceInvalid("A nonce is required: send the raw nonce whose SHA-256 the ID token carries.")
        }
        guard let carried = claims.nonce else {
            throw Self.nonceInvalid("The ID token has no nonce, but one was sent.")
        }
        // The token carries the raw nonce's SHA-256 (Apple's convention) or, for Google only,
        // the raw nonce itself (GoogleSignIn's). As on the server, the token's own claim is what
        // is spent, so a Google token carrying a hash cannot be replayed by sending that hash.
        guard carried == SaltedHash.sha256Hex(raw) || (claims.provider == IDTokenCredential.Provider.google.rawValue && carried == raw) else {
            throw Self.nonceInvalid("The nonce does not match the ID token's: send the raw nonce, not its hash.")
        }
        let nonceKey = "\(claims.provider):\(carried)"
        guard !usedNonces.contains(nonceKey) else {
            throw Self.nonceInvalid("This nonce was used already: make a new nonce for every sign-in.")
        }
        let userID = try resolveUser(for: claims, linkingTo: linking)
        try checkNotBanned(accounts[userID]!)
        usedNonces.insert(nonceKey)
        if let name = credential.fullName { keepName(name, for: userID) }
        return startSession(for: userID, method: "oauth")
    }

    func resolveUser(for claims: IDTokenClaims, linkingTo caller: String?) throws -> String {
        let key = IdentityKey(provider: claims.provider, subject: claims.subject)
        if let owner = identities[key] {
            if let caller, owner != caller, accounts[caller]?.user.isAnonymous == false {
                throw AuthError(
                    code: .identityAlreadyExists,
                    message: "This \(claims.provider) account is already linked to another user.",
                    recoverySuggestion: "Sign in to that account instead.",
                    httpStatus: 422
                )
            }
            return owner
        }
        if let caller, let account = accounts[caller] {
            if account.user.isAnonymous, claims.emailVerified, let email = claims.email,
                let owner = userID(forEmail: email), owner != caller
            {
                // The guest's provider account belongs to an existing user: sign into it.
                return link(claims, to: owner)
            }
            return link(claims, to: caller)
        }
        if let email = claims.email, let owner = userID(forEmail: email) {
            guard claims.emailVerified else {
                throw AuthError(
                    code: .emailExists,
                    message: "An account already uses this e-mail address, and \(claims.provider) has not "
                        + "verified it, so it cannot be linked automatically.",
                    recoverySuggestion: "Sign in to that account and link \(claims.provider) from there.",
                    httpStatus: 422
                )
            }
            return link(claims, to: owner)
        }
        let provider = JSONValue.string(claims.provider)
        let user = User(
            id: UUID().uuidString.lowercased(),
            email: claims.emailVerified ? claims.email : nil,
            createdAt: now,
            emailConfirmedAt: claims.emailVerified ? now : nil,
            appMetadata: ["provider": provider, "providers": [provider]],
            identities: [claims.identity]
        )
        accounts[user.id] = AccountRecord(user: user, identities: [key])
        identities[key] = user.id
        return user.id
    }

    /// Apple's first-authorization name, as the server keeps it: each of `full_name`,
    /// `given_name` and `family_name` only where the user's metadata has none.
    private func keepName(_ name: PersonNameComponents, for id: String) {
        let trim = { (part: String?) in part?.trimmingCharacters(in: .whitespacesAndNewlines) }
        let given = trim(name.givenName).flatMap { $0.isEmpty ? nil : $0 }
        let family = trim(name.familyName).flatMap { $0.isEmpty ? nil : $0 }
        let full = [given, family].compactMap(\.self).joined(separator: " ")
        guard var account = accounts[id] else { return }
        for (key, value) in [("full_name", full.isEmpty ? nil : full), ("given_name", given), ("family_name", family)] {
            guard let value else { continue }
            if let existing = account.user.userMetadata[key], existing != .null, existing != .string("") { continue }
            account.user.userMetadata[key] = .string(value)
        }
        accounts[id] = account
    }

    /// Links the identity to a user. A guest becomes permanent (same id) and takes the vouched
    /// address when no one has it; an account whose address was never confirmed loses its
    /// password and sessions when the provider vouches for the address.
    private func link(_ claims: IDTokenClaims, to id: String) -> String {
        guard var account = accounts[id] else { return id }
        let key = IdentityKey(provider: claims.provider, subject: claims.subject)
        if account.user.isAnonymous {
            account.user.isAnonymous = false
            if claims.emailVerified, let email = claims.email, userID(forEmail: email) == nil {
                account.user.email = email
                account.user.emailConfirmedAt = now
            }
        } else if claims.emailVerified, account.user.email == claims.email, account.user.emailConfirmedAt == nil {
            account.passwordHash = nil
            account.user.emailConfirmedAt = now
            endSessions { $0.userID == id }
        }
        let provider = JSONValue.string(claims.provider)
        var providers: [JSONValue] = []
        if case .array(let listed) = account.user.appMetadata["providers"] { providers = listed }
        if !providers.contains(provider) { providers.append(provider) }
        account.user.appMetadata["providers"] = .array(providers)
        if account.user.appMetadata["provider"] == nil { account.user.appMetadata["provider"] = provider }
        account.identities.append(key)
        account.user.identities.append(claims.identity)
        accounts[id] = account
        identities[key] = id
        return id
    }

    private static func nonceInvalid(_ message: String) -> AuthError {
        AuthError(
            code: .idTokenNonceInvalid,
            message: message,
            recoverySuggestion: "Start the sign-in again with a new nonce.",
            httpStatus: 400
        )
    }
}
