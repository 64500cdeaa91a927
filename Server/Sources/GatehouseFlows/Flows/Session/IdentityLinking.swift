import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// The rules that decide which account a provider's sign-in lands in (security.md ID-1, OWN-1),
/// shared by the ID-token grant (``IDTokenSignIn``) and the sign-in through a provider's page
/// (``OAuthCallback``):
/// - one identity per (provider, subject); a known subject signs into its user (and a permanent
///   user linking a subject another account holds gets `identity_already_exists`);
/// - a new subject links by e-mail only when the provider vouches for the address (it is
///   authoritative for it and says it is verified), and is refused with `email_exists` when an
///   account has the address but the provider does not vouch for it;
/// - a guest who links is upgraded in place and keeps its id, or, when the vouched address
///   belongs to an account already, is signed into that account;
/// - an account whose address was never confirmed loses its unproven password and sessions when
///   a provider vouches for the address (``AddressProof``);
/// - a new account is refused while sign-ups are disabled.
///
/// ``resolve(_:linkingTo:in:now:)`` runs inside the sign-in's transaction;
/// ``announce(_:provider:permit:linkingUserID:in:now:)`` queues the notice to the owner of a newly
/// linked account in the same transaction.
struct IdentityLinking: Sendable {
    let audit: AuditLog
    /// Sends the notice of a provider linked by a vouched address.
    let delivery: CodeDelivery
    /// Whether new accounts are refused (`GATEHOUSE_DISABLE_SIGNUP`).
    let signupDisabled: Bool

    /// Where a sign-in landed.
    struct Outcome: Sendable {
        /// The user signed in, with `last_sign_in_at` updated.
        var user: UserRecord
        /// The account (as it was) the identity was newly linked to, if any: its owner is told.
        var linkedTo: UserRecord?
    }

    /// The user `identity` signs in: its own, the one `linkingUser` (a signed-in caller) links it
    /// to, an account its vouched address names, or a new one.
    func resolve(
        _ identity: ProviderIdentity,
        linkingTo linkingUser: UserRecord?,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Outcome {
        if let existing = try await tx.identity(provider: identity.provider, subject: identity.subject) {
            if let linkingUser, existing.userID != linkingUser.id, !linkingUser.isAnonymous {
                throw Self.alreadyLinked(identity)
            }
            try await tx.updateIdentity(refreshed(existing, with: identity, now: now))
            return Outcome(user: try await signedIn(existing.userID, in: tx, now: now), linkedTo: nil)
        }
        if let linkingUser {
            if linkingUser.isAnonymous, identity.emailIsVouched, let email = identity.email,
                let owner = try await tx.user(email: email), owner.id != linkingUser.id
            {
                // The guest's provider account belongs to an existing user: sign into it.
                return Outcome(user: try await link(identity, to: owner, in: tx, now: now), linkedTo: owner)
            }
            return Outcome(user: try await link(identity, to: linkingUser, in: tx, now: now), linkedTo: linkingUser)
        }
        if let email = identity.email, let owner = try await tx.user(email: email) {
            guard identity.emailIsVouched else {
                throw APIError(
                    .unprocessableContent,
                    .emailExists,
                    "An account already uses this e-mail address, and \(identity.displayName) has not "
                        + "verified it, so it cannot be linked automatically. Sign in to that account and link "
                        + "\(identity.displayName) from there."
                )
            }
            return Outcome(user: try await link(identity, to: owner, in: tx, now: now), linkedTo: owner)
        }
        if signupDisabled {
            throw APIError(.unprocessableContent, .signupDisabled, "Signups not allowed for this instance")
        }
        let user = UserRecord(
            email: identity.emailIsVouched ? identity.email : nil,
            emailConfirmedAt: identity.emailIsVouched ? now : nil,
            lastSignInAt: now,
            appMetadata: ["provider": identity.providerText, "providers": [identity.providerText]],
            userMetadata: identity.fullName.map { ["full_name": .string($0)] } ?? [:],
            createdAt: now,
            updatedAt: now
        )
        try await tx.insertUser(user)
        try await tx.insertIdentity(newIdentity(identity, userID: user.id, now: now))
        return Outcome(user: try await signedIn(user.id, in: tx, now: now), linkedTo: nil)
    }

    /// In the sign-in's transaction: queues the owner's notice of the new way in (the mail
    /// outbox), through the table's permit when the signed-in caller linked it, directly when a
    /// vouched address linked it to an account that did not ask. Returns whether a notice was
    /// queued; after the commit, ``wakeSender()`` sends it.
    func announce(
        _ outcome: Outcome,
        provider: ProviderIdentity,
        permit: SensitiveActionPermit?,
        linkingUserID: UUID?,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Bool {
        guard let linkedTo = outcome.linkedTo else { return false }
        if let permit, linkedTo.id == linkingUserID {
            try await permit.queueNotices(provider.wayIn, in: tx, now: now)
            return true
        }
        guard linkedTo.emailConfirmedAt != nil, !linkedTo.isAnonymous, let address = linkedTo.email else {
            return false
        }
        _ = try await delivery.notify(
            AccountNotice.mail(.wayInAdded, to: address, what: provider.wayIn),
            in: tx,
            now: now
        )
        return true
    }

    /// Wakes the mail sender for a notice ``announce(_:provider:permit:linkingUserID:in:now:)``
    /// queued in a transaction that has committed.
    func wakeSender() {
        delivery.wakeSender()
    }

    static func alreadyLinked(_ identity: ProviderIdentity) -> APIError {
        APIError(
            .unprocessableContent,
            .identityAlreadyExists,
            "This \(identity.displayName) account is already linked to another user."
        )
    }

    /// Links the identity to `user`. A guest becomes permanent (same id) and takes the vouched
    /// address when no one has it. An account whose address was never confirmed loses its
    /// password and sessions when the provider vouches for the address: whoever set that
    /// password never proved they own it.
    private func link(
        _ identity: ProviderIdentity,
        to user: UserRecord,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> UserRecord {
        var user = user
        if user.isAnonymous {
            user.isAnonymous = false
            if identity.emailIsVouched, let email = identity.email, try await tx.user(email: email) == nil {
                user.email = email
                user.emailConfirmedAt = now
            }
        } else if identity.emailIsVouched, user.email == identity.email, user.emailConfirmedAt == nil {
            let proof = AddressProof.decide(user: user, purpose: .magicLink, linkHash: nil)
            proof.apply(to: &user, now: now)
            if proof == .dropUnprovenPassword {
                try await tx.deleteSessions(userID: user.id, except: nil)
                try await audit.record(.unprovenPasswordDropped, actor: user.id, ip: nil, in: tx)
            }
        }
        var providers: [JSONValue] = []
        if case .array(let listed) = user.appMetadata["providers"] { providers = listed }
        if !providers.contains(identity.providerText) { providers.append(identity.providerText) }
        user.appMetadata["providers"] = .array(providers)
        if user.appMetadata["provider"] == nil { user.appMetadata["provider"] = identity.providerText }
        user.updatedAt = now
        try await tx.updateUser(user)
        do {
            try await tx.insertIdentity(newIdentity(identity, userID: user.id, now: now))
        } catch StorageError.duplicateIdentity {
            throw Self.alreadyLinked(identity)
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

    private func newIdentity(_ identity: ProviderIdentity, userID: UUID, now: Date) -> IdentityRecord {
        IdentityRecord(
            userID: userID,
            provider: identity.provider,
            subject: identity.subject,
            email: identity.email,
            data: identity.data,
            lastSignInAt: now,
            createdAt: now,
            updatedAt: now
        )
    }

    /// The identity after a new sign-in: Apple sends the address only the first time, so a
    /// sign-in without one keeps the stored address and claims.
    private func refreshed(_ stored: IdentityRecord, with identity: ProviderIdentity, now: Date) -> IdentityRecord {
        var stored = stored
        stored.data.merge(identity.data) { _, new in new }
        if let email = identity.email { stored.email = email }
        stored.lastSignInAt = now
        stored.updatedAt = now
        return stored
    }
}
