import Foundation
import GatehouseCore
import HTTPTypes
import JWTKit

/// `POST /token?grant_type=id_token`: signs in (or links) with a verified Apple or Google ID
/// token. Rules (issue 5, security.md section 7):
/// - one identity per (provider, subject); a known subject signs into its user;
/// - a new subject links by e-mail only when the provider vouches for the address, and is
///   refused when an account has the address but the provider does not vouch for it;
/// - a guest who signs in (with `link_identity` and its bearer) is upgraded in place and keeps
///   its id, or, when the subject or vouched address belongs to an account already, is
///   signed into that account (the client sees the id change and moves its guest data);
/// - a permanent user linking a subject that another account holds gets
///   `identity_already_exists`;
/// - linking (``SensitiveAction/linkIdentity``) needs what ``SensitiveActionPolicy`` says: a
///   sign-in within 10 minutes or a reauthentication code (sent as `reauthentication_nonce`,
///   since `nonce` is the ID token's), and AAL2 from a user with a verified factor; a guest with
///   no other way in needs neither. A confirmed address is told whenever a provider is linked to
///   its account, by the caller or by a vouched address;
/// - the nonce is consumed in the same transaction, so it works once and only on success;
/// - a name sent beside the token (Apple's first authorization) fills only empty
///   `user_metadata` fields (``ProviderName``);
/// - Apple's `authorization_code`, when the server has the developer key, is exchanged for
///   Apple's refresh token (``AppleTokenExchange``) before anything is stored, and the token is
///   kept sealed on the identity for its revocation at deletion; without the key it is ignored.
///   A sign-in without the code is answered normally, and the log says once per client id that
///   Apple's tokens cannot be revoked for it (``MissingCodeNotice``).
struct IDTokenSignIn: Sendable {
    let storage: any AuthStorage
    /// ID-token verifiers of the enabled providers.
    let verifiers: [IdentityProvider: IDTokenVerifier]
    /// Apple's code exchange, when configured.
    let apple: AppleAccountClient?
    /// Verifies the bearer of a linking request (only then: clients may send an API key always).
    let authenticator: Authenticator
    let sensitive: SensitiveActionGuard
    let sessions: SessionIssuer
    /// Sends the notice of a provider linked by a vouched address.
    let delivery: CodeDelivery
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// Signs in with `body`'s ID token, or links it to the caller that `bearer` names when
    /// `link_identity` is set.
    func callAsFunction(
        _ body: IDTokenGrantRequest,
        bearer: String?,
        reauthenticationNonce: String?,
        ip: String
    ) async throws -> WireSession {
        let now = now()
        var caller: Caller?
        var authorized: SensitiveActionPermit?
        if body.linkIdentity == true {
            guard let bearer else { throw APIError.noAuthorization }
            let linking = try await authenticator.caller(bearer: bearer)
            authorized = try await sensitive.authorize(
                .linkIdentity,
                linking,
                evidence: .init(nonce: reauthenticationNonce),
                ip: ip
            )
            caller = linking
        }
        guard let provider = IdentityProvider(rawValue: body.provider.lowercased()) else {
            throw APIError(
                .badRequest,
                .providerDisabled,
                "Unsupported provider “\(body.provider)”: use apple or google."
            )
        }
        guard let verifier = verifiers[provider] else {
            throw APIError(
                .badRequest,
                .providerDisabled,
                "Sign in with \(provider.displayName) is not enabled on this server "
                    + "(set GATEHOUSE_\(provider.rawValue.uppercased())_CLIENT_IDS)."
            )
        }
        let name = try ProviderName.from(body)
        let token = try await verifier.verify(body.idToken, rawNonce: body.nonce, now: now)
        let appleToken = try await exchangeAppleCode(body.authorizationCode, for: token, now: now)
        let apple = self.apple
        let linking = caller
        let permit = authorized
        let (grant, linkedTo) = try await storage.transaction { tx in
            guard
                try await tx.consumeNonce(
                    provider: provider.rawValue,
                    hash: token.nonceHash,
                    expiresAt: token.expiresAt,
                    now: now
                )
            else {
                throw APIError(
                    .badRequest,
                    .idTokenNonceInvalid,
                    "This nonce was used already: make a new nonce for every sign-in."
                )
            }
            let (resolved, linkedTo) = try await resolveUser(for: token, linkingTo: linking, in: tx, now: now)
            var user = resolved
            if user.isBanned(at: now) { throw APIError.userBanned }
            if let name, name.fill(&user.userMetadata) {
                user.updatedAt = now
                try await tx.updateUser(user)
            }
            if let appleToken, let apple,
                let identity = try await tx.identity(provider: provider.rawValue, subject: token.subject)
            {
                try await tx.storeAppleToken(
                    identityID: identity.id,
                    clientID: appleToken.clientID,
                    sealedToken: try apple.sealing.seal(appleToken.refreshToken, identityID: identity.id),
                    at: now
                )
            }
            try await audit.record("login", actor: user.id, ip: ip, detail: provider.rawValue, in: tx)
            let grant = try await sessions.open(
                for: user,
                method: "oauth",
                provider: provider.rawValue,
                device: body.device,
                ip: ip,
                in: tx,
                at: now
            )
            if let linkedTo {
                // The owner is told of the new way in: through the table when the caller linked
                // it, directly when a vouched address linked it to an account that did not ask.
                if let permit, linkedTo.id == linking?.user.id {
                    try await permit.queueNotices(provider.wayIn, in: tx, now: now)
                } else if linkedTo.emailConfirmedAt != nil, !linkedTo.isAnonymous, let address = linkedTo.email {
                    let notice = AccountNotice.mail(.wayInAdded, to: address, what: provider.wayIn)
                    _ = try await delivery.notify(notice, in: tx, now: now)
                }
            }
            return (grant, linkedTo)
        }
        if linkedTo != nil { delivery.wakeSender() }
        return try await sessions.answer(grant, now: now)
    }

    /// Apple's refresh token for the request's authorization code, with the app it belongs to
    /// (the token's audience); `nil` for Google, without a code, or without the developer key.
    private func exchangeAppleCode(
        _ code: String?,
        for token: VerifiedIDToken,
        now: Date
    ) async throws -> (clientID: String, refreshToken: String)? {
        guard token.provider == .apple, let apple, let clientID = token.claims.audience?.value.first else { return nil }
        guard let code, !code.isEmpty else {
            apple.missingCode.note(clientID: clientID)
            return nil
        }
        let refreshToken = try await apple.exchange.refreshToken(
            code: code,
            clientID: clientID,
            subject: token.subject,
            now: now
        )
        return (clientID, refreshToken)
    }

    /// The user the token signs in, and the account (as it was) the token's identity was newly
    /// linked to, if any (its owner's notice is queued in the same transaction).
    private func resolveUser(
        for token: VerifiedIDToken,
        linkingTo caller: Caller?,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> (UserRecord, linkedTo: UserRecord?) {
        let provider = token.provider.rawValue
        if let existing = try await tx.identity(provider: provider, subject: token.subject) {
            if let caller, existing.userID != caller.user.id, !caller.user.isAnonymous {
                throw APIError(
                    .unprocessableContent,
                    .identityAlreadyExists,
                    "This \(token.provider.displayName) account is already linked to another user."
                )
            }
            try await tx.updateIdentity(refreshed(existing, with: token, now: now))
            return (try await signedIn(existing.userID, in: tx, now: now), nil)
        }
        if let caller {
            if caller.user.isAnonymous, token.emailIsVouched, let email = token.email,
                let owner = try await tx.user(email: email), owner.id != caller.user.id
            {
                // The guest's provider account belongs to an existing user: sign into it.
                return (try await link(token, to: owner, in: tx, now: now), owner)
            }
            return (try await link(token, to: caller.user, in: tx, now: now), caller.user)
        }
        if let email = token.email, let owner = try await tx.user(email: email) {
            guard token.emailIsVouched else {
                throw APIError(
                    .unprocessableContent,
                    .emailExists,
                    "An account already uses this e-mail address, and \(token.provider.displayName) has not "
                        + "verified it, so it cannot be linked automatically. Sign in to that account and link "
                        + "\(token.provider.displayName) from there."
                )
            }
            return (try await link(token, to: owner, in: tx, now: now), owner)
        }
        let user = UserRecord(
            email: token.emailIsVouched ? token.email : nil,
            emailConfirmedAt: token.emailIsVouched ? now : nil,
            lastSignInAt: now,
            appMetadata: ["provider": .string(provider), "providers": [.string(provider)]],
            userMetadata: token.claims.name.map { ["full_name": .string($0)] } ?? [:],
            createdAt: now,
            updatedAt: now
        )
        try await tx.insertUser(user)
        try await tx.insertIdentity(newIdentity(token, userID: user.id, now: now))
        return (try await signedIn(user.id, in: tx, now: now), nil)
    }

    /// Links the token's identity to `user`. A guest becomes permanent (same id) and takes the
    /// vouched address when no one has it. An account whose address was never confirmed loses
    /// its password and sessions when the provider vouches for the address: whoever set that
    /// password never proved they own it.
    private func link(
        _ token: VerifiedIDToken,
        to user: UserRecord,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> UserRecord {
        var user = user
        if user.isAnonymous {
            user.isAnonymous = false
            if token.emailIsVouched, let email = token.email, try await tx.user(email: email) == nil {
                user.email = email
                user.emailConfirmedAt = now
            }
        } else if token.emailIsVouched, user.email == token.email, user.emailConfirmedAt == nil {
            let proof = AddressProof.decide(user: user, purpose: .magicLink, linkHash: nil)
            proof.apply(to: &user, now: now)
            if proof == .dropUnprovenPassword {
                try await tx.deleteSessions(userID: user.id, except: nil)
                try await audit.record("unproven_password_dropped", actor: user.id, ip: nil, in: tx)
            }
        }
        var providers: [JSONValue] = []
        if case .array(let listed) = user.appMetadata["providers"] { providers = listed }
        if !providers.contains(.string(token.provider.rawValue)) { providers.append(.string(token.provider.rawValue)) }
        user.appMetadata["providers"] = .array(providers)
        if user.appMetadata["provider"] == nil { user.appMetadata["provider"] = .string(token.provider.rawValue) }
        user.updatedAt = now
        try await tx.updateUser(user)
        do {
            try await tx.insertIdentity(newIdentity(token, userID: user.id, now: now))
        } catch StorageError.duplicateIdentity {
            throw APIError(
                .unprocessableContent,
                .identityAlreadyExists,
                "This \(token.provider.displayName) account is already linked to another user."
            )
        }
        return try await signedIn(user.id, in: tx, now: now)
    }

    private func signedIn(_ id: UUID, in tx: any StorageTransaction, now: Date) async throws -> UserRecord {
        guard var user = try await tx.user(id: id) else { throw APIError.userNotFoundForToken }
        user.lastSignInAt = now
        user.updatedAt = now
        try await tx.updateUser(user)
        return user
    }

    private func newIdentity(_ token: VerifiedIDToken, userID: UUID, now: Date) -> IdentityRecord {
        IdentityRecord(
            userID: userID,
            provider: token.provider.rawValue,
            subject: token.subject,
            email: token.email,
            data: token.claims.identityData,
            lastSignInAt: now,
            createdAt: now,
            updatedAt: now
        )
    }

    /// The identity after a new sign-in: Apple sends the address only the first time, so a
    /// token without one keeps the stored address and claims.
    private func refreshed(_ identity: IdentityRecord, with token: VerifiedIDToken, now: Date) -> IdentityRecord {
        var identity = identity
        identity.data.merge(token.claims.identityData) { _, new in new }
        if let email = token.email { identity.email = email }
        identity.lastSignInAt = now
        identity.updatedAt = now
        return identity
    }
}
