public import Foundation
import GatehouseServerSupport

/// An Apple refresh token waiting to be revoked at Apple: its identity and user are gone (or
/// going) already; the row outlives them until Apple confirms.
public struct AppleRevocationRecord: Sendable, Equatable {
    /// The identity the token was issued for (the sealed token's authenticated data).
    public var identityID: UUID
    public var userID: UUID
    /// The app (bundle id or Services id) the token belongs to.
    public var clientID: String
    /// The token, sealed under the server secret.
    public var sealedToken: String
    /// Why it is revoked: `user_deleted`, `admin_user_deleted`, `identity_unlinked`, ….
    public var reason: String
    /// Attempts made so far, this claim's included.
    public var attempts: Int
    public var createdAt: Date

    public init(
        identityID: UUID,
        userID: UUID,
        clientID: String,
        sealedToken: String,
        reason: String,
        attempts: Int,
        createdAt: Date
    ) {
        self.identityID = identityID
        self.userID = userID
        self.clientID = clientID
        self.sealedToken = sealedToken
        self.reason = reason
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// Apple's refresh tokens, one per Apple identity, and the outbox of their revocations (part of
/// ``StorageTransaction``).
public protocol AppleTokenWriter: Sendable {
    /// Stores (or replaces) the sealed Apple refresh token of an identity, issued to `clientID`.
    func storeAppleToken(identityID: UUID, clientID: String, sealedToken: String, at now: Date) async throws
    /// The sealed token stored for an identity and the app it belongs to.
    func appleToken(identityID: UUID) async throws -> (clientID: String, sealedToken: String)?
    /// Forgets an identity's token (Apple ended the authorization itself); returns whether there was one.
    @discardableResult
    func deleteAppleToken(identityID: UUID) async throws -> Bool
    /// Queues the revocation of the tokens of the user's identities (only `identityID`'s when
    /// given), due at `now`. Call it in the transaction that deletes them, before the delete:
    /// the queue and the deletion commit together.
    /// - Returns: How many were queued.
    @discardableResult
    func queueAppleRevocations(userID: UUID, identityID: UUID?, reason: String, at now: Date) async throws -> Int
    /// Claims up to `limit` revocations due by `now`: counts an attempt and moves each one's
    /// next attempt to `leaseUntil`, so that no other pass (or instance: rows locked by another
    /// transaction are skipped on PostgreSQL) takes it meanwhile.
    func claimAppleRevocations(dueBy now: Date, leaseUntil: Date, limit: Int) async throws -> [AppleRevocationRecord]
    /// Removes a revocation that is done (or given up).
    func deleteAppleRevocation(identityID: UUID) async throws
    /// Puts a failed revocation off until `next`, noting why it failed.
    func rescheduleAppleRevocation(identityID: UUID, at next: Date, error: String) async throws
}
