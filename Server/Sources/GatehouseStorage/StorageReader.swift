public import Foundation
import GatehouseServerSupport

/// The reads of the storage: all that ``AuthStorage/read(_:)`` offers, and what a
/// ``StorageTransaction`` offers besides its writes.
///
/// No method here changes a row, so a body given a reader cannot write by mistake.
///
/// ```swift
/// let user = try await storage.read { try await $0.user(email: "ada@example.com") }
/// ```
public protocol StorageReader: PasskeyReader, MailOutboxReader, FlowStateReader, ConsoleReader {
    func user(id: UUID) async throws -> UserRecord?
    func user(email: String) async throws -> UserRecord?
    /// A page of users by creation time, and the total count.
    func listUsers(offset: Int, limit: Int) async throws -> ([UserRecord], Int)

    func session(id: UUID) async throws -> SessionRecord?
    /// A session and its user in one read (every authenticated request and refresh needs both).
    func sessionWithUser(id: UUID) async throws -> (SessionRecord, UserRecord)?
    /// A user's sessions signed in at or after `createdAfter` and refreshed at or after
    /// `refreshedAfter` (the ones not ended by time), newest first, at most `limit`.
    func sessions(userID: UUID, createdAfter: Date, refreshedAfter: Date, limit: Int) async throws -> [SessionRecord]

    /// One of the user's factors with its sealed secret.
    func factor(id: UUID, userID: UUID) async throws -> FactorRecord?
    /// A challenge of the factor.
    func challenge(id: UUID, factorID: UUID) async throws -> FactorChallengeRecord?

    func code(userID: UUID, purpose: CodePurpose) async throws -> CodeRecord?
    func code(linkHash: String) async throws -> CodeRecord?
    /// The codes of `purpose` sent to `email`, of any user (a pending new address is no one's yet).
    func codes(purpose: CodePurpose, email: String) async throws -> [CodeRecord]

    /// The identity for a provider subject, if linked.
    func identity(provider: AuthProvider, subject: String) async throws -> IdentityRecord?

    /// The sealed parameters of an imported password-hash scheme (``FirebaseHashKeyStore``), if kept.
    func importHashKey(scheme: String) async throws -> String?
    /// Which of `ids` are users already (an import's idempotence, one statement per batch).
    func existingUserIDs(_ ids: [UUID]) async throws -> Set<UUID>
    /// Which of `emails` (lowercased) a user has already.
    func existingEmails(_ emails: [String]) async throws -> Set<String>
    /// Which of `keys` are linked to a user already.
    func existingIdentities(_ keys: [IdentityKey]) async throws -> Set<IdentityKey>

    func signingKeys() async throws -> [SigningKeyRecord]
    /// Whether a token id was revoked.
    func isTokenRevoked(jti: String) async throws -> Bool

    func auditEntries(limit: Int) async throws -> [AuditEntry]

    /// Whether migrations are missing or running (``SQLTransaction/migrationsPending()``); `/ready` asks.
    func migrationsPending() async throws -> Bool

    /// How many sessions the database holds (the active-sessions gauge of `/metrics`).
    func sessionCount() async throws -> Int
}
