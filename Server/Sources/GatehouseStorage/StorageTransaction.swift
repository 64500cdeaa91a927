public import Foundation
import GatehouseServerSupport

/// The operations available inside a transaction: every read of ``StorageReader`` and the writes.
///
/// Given only to the body of ``AuthStorage/transaction(_:)``, which may run more than once:
/// the body must not act outside the transaction.
public protocol StorageTransaction: StorageReader, PasskeyWriter, AppleTokenWriter, MailOutboxWriter, FlowStateWriter,
    ConsoleWriter
{
    func insertUser(_ user: UserRecord) async throws
    func updateUser(_ user: UserRecord) async throws
    /// Deletes a user and, by cascade, its sessions and codes.
    func deleteUser(id: UUID) async throws

    func insertSession(_ session: SessionRecord) async throws
    /// Moves the counter from `expected` to `expected + 1` if it is still `expected`, records
    /// the time and the client address `ip` of the refresh and, if it did, appends `audit`: one
    /// statement on PostgreSQL, so that it can run in ``AuthStorage/autocommit(_:)``.
    /// - Returns: whether this call won the rotation.
    func rotateSession(
        id: UUID,
        expectedCounter: Int64,
        at now: Date,
        from ip: String?,
        audit: AuditEntry
    ) async throws -> Bool
    func deleteSession(id: UUID) async throws
    /// Deletes the session `id` if it belongs to `userID`; returns whether it did.
    func deleteSession(id: UUID, userID: UUID) async throws -> Bool
    /// Deletes up to `limit` sessions signed in before `createdBefore` or last refreshed on a day
    /// before the one holding `refreshedBefore` (ended by lifetime or inactivity; the idle ones are
    /// found by ``SessionRefreshDay``); returns how many.
    func deleteEndedSessions(createdBefore: Date, refreshedBefore: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` rows of `rows` that expired (or, for audit entries, were written)
    /// before `cutoff`; returns how many. Ended sessions have ``deleteEndedSessions(createdBefore:refreshedBefore:limit:)``.
    func deleteExpired(_ rows: SweptRows, before cutoff: Date, limit: Int) async throws -> Int
    /// Deletes every session of a user, except `except` when given; returns how many.
    @discardableResult
    func deleteSessions(userID: UUID, except: UUID?) async throws -> Int

    /// Raises a session to AAL2 on `factorID`, with `amr`, and moves its refresh counter on (by
    /// two, clearing the rotation time, so that its AAL1 refresh tokens count as reused).
    /// - Returns: The raised session, or `nil` when it is gone.
    func elevateSession(id: UUID, factorID: UUID, amr: [AMREntry], at now: Date) async throws -> SessionRecord?
    /// Drops the sessions that relied on `factorID` to AAL1 (their `totp` methods go too).
    func downgradeSessions(factorID: UUID) async throws
    /// Deletes the user's sessions below AAL2 except `except`; returns how many.
    @discardableResult
    func deleteSessionsBelowAAL2(userID: UUID, except: UUID) async throws -> Int

    /// Serializes factor changes of one user (held until commit), so that the 10-factor cap holds
    /// under concurrent enrolments.
    func lockFactors(userID: UUID) async throws
    /// Stores a new factor; a friendly name the user has already is `StorageError.duplicateFactorName`.
    func insertFactor(_ factor: FactorRecord) async throws
    /// Removes one of the user's factors (its challenges go with it); returns whether it existed.
    func deleteFactor(id: UUID, userID: UUID) async throws -> Bool
    /// Removes the user's unverified factors created before `cutoff` (lapsed enrolments).
    func deleteUnverifiedFactors(userID: UUID, createdBefore cutoff: Date) async throws
    func markFactorVerified(id: UUID, at now: Date) async throws
    /// Records `step` as the factor's newest accepted step if it is newer than the stored one,
    /// in one statement, so that two verifies of one code never both pass.
    /// - Returns: `false` when a code of this step or a later one was accepted already (a replay).
    func recordFactorStep(id: UUID, step: Int64) async throws -> Bool
    /// Stores a challenge (and notes the factor's `last_challenged_at`).
    func insertChallenge(_ challenge: FactorChallengeRecord) async throws
    /// Counts one code against a challenge if it has had fewer than `limit`, in one statement.
    /// - Returns: The challenge as counted, or `nil` when it is gone or spent.
    func countChallengeAttempt(id: UUID, below limit: Int) async throws -> FactorChallengeRecord?
    /// Removes a challenge; returns whether it existed (only one verify consumes it).
    func deleteChallenge(id: UUID) async throws -> Bool

    /// Stores a code, replacing the user's previous code of the same purpose.
    func upsertCode(_ code: CodeRecord) async throws
    /// Counts one attempt at the user's code of `purpose` if it has had fewer than `limit`, in
    /// one statement (`attempts = attempts + 1 … RETURNING`), so that concurrent guesses queue
    /// on the row and never pass the limit together.
    /// - Returns: The code as counted, or `nil` when there is none or its attempts are spent.
    func countCodeAttempt(userID: UUID, purpose: CodePurpose, below limit: Int) async throws -> CodeRecord?
    func deleteCode(userID: UUID, purpose: CodePurpose) async throws

    /// Links an identity; a (provider, subject) pair linked already is `StorageError.duplicateIdentity`.
    func insertIdentity(_ identity: IdentityRecord) async throws
    func updateIdentity(_ identity: IdentityRecord) async throws
    /// Unlinks one of the user's identities; returns whether it existed.
    func deleteIdentity(id: UUID, userID: UUID) async throws -> Bool

    /// Records an ID-token nonce as used until `expiresAt`.
    /// - Returns: `false` when it was used already (a replay).
    func consumeNonce(provider: AuthProvider, hash: String, expiresAt: Date, now: Date) async throws -> Bool

    /// Serializes key creation between instances starting together (held until commit).
    func lockSigningKeys() async throws
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    /// Replaces a key's stored private key (its sealing at start).
    func updateSigningKey(kid: String, privatePEM: String) async throws
    /// Removes a key; tokens it signed stop verifying.
    func deleteSigningKey(kid: String) async throws -> Bool

    /// Records a token id as revoked; revoking it again changes nothing.
    func revokeToken(jti: String, at now: Date) async throws

    /// Inserts many users with their identities and factors (secrets sealed) in few statements
    /// (an import's batch); the caller has checked that no id, address or identity is taken.
    func insertUsers(_ users: [UserRecord]) async throws

    /// Keeps (or replaces) the sealed parameters of an imported password-hash scheme.
    func storeImportHashKey(scheme: String, sealed: String, at now: Date) async throws
    /// Forgets them; returns whether they were kept.
    func deleteImportHashKey(scheme: String) async throws -> Bool

    func appendAudit(_ entry: AuditEntry) async throws
}
