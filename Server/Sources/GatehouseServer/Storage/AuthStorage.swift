public import Foundation

/// Where the server keeps users, sessions, codes, keys and the audit log.
///
/// One interface, one implementation per database (SQLite today). Every call inside one
/// ``transaction(_:)`` commits together or not at all.
public protocol AuthStorage: Sendable {
    /// Applies the named, ordered migrations that are not applied yet.
    func migrate() async throws

    /// Runs `body` in one transaction: it commits when `body` returns and rolls back when it throws.
    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result

    /// Runs `body` outside any write transaction, for reads only: each statement sees the latest
    /// committed data and waits for no writer (SQLite: a query-only WAL reader connection).
    /// Use ``transaction(_:)`` when several reads must agree or anything is written.
    func read<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageTransaction) async throws -> Result
    )
        async throws -> Result

    /// Closes the database.
    func close() async throws
}

/// The operations available inside a transaction.
public protocol StorageTransaction: Sendable {
    func insertUser(_ user: UserRecord) async throws
    func user(id: UUID) async throws -> UserRecord?
    func user(email: String) async throws -> UserRecord?
    func updateUser(_ user: UserRecord) async throws
    /// A page of users by creation time, and the total count.
    func listUsers(offset: Int, limit: Int) async throws -> ([UserRecord], Int)
    /// Deletes a user and, by cascade, its sessions and codes.
    func deleteUser(id: UUID) async throws

    func insertSession(_ session: SessionRecord) async throws
    func session(id: UUID) async throws -> SessionRecord?
    /// A session and its user in one read (every authenticated request and refresh needs both).
    func sessionWithUser(id: UUID) async throws -> (SessionRecord, UserRecord)?
    /// Moves the counter from `expected` to `expected + 1` if it is still `expected`.
    /// - Returns: whether this call won the rotation.
    func rotateSession(id: UUID, expectedCounter: Int64, at now: Date) async throws -> Bool
    func deleteSession(id: UUID) async throws
    /// Deletes every session of a user, except `except` when given; returns how many.
    @discardableResult
    func deleteSessions(userID: UUID, except: UUID?) async throws -> Int

    /// Stores a code, replacing the user's previous code of the same purpose.
    func upsertCode(_ code: CodeRecord) async throws
    func code(userID: UUID, purpose: String) async throws -> CodeRecord?
    func code(linkHash: String) async throws -> CodeRecord?
    func updateCodeAttempts(userID: UUID, purpose: String, attempts: Int) async throws
    func deleteCode(userID: UUID, purpose: String) async throws

    /// The identity for a provider subject, if linked.
    func identity(provider: String, subject: String) async throws -> IdentityRecord?
    /// Links an identity; a (provider, subject) pair linked already is `StorageError.duplicateIdentity`.
    func insertIdentity(_ identity: IdentityRecord) async throws
    func updateIdentity(_ identity: IdentityRecord) async throws
    /// Unlinks one of the user's identities; returns whether it existed.
    func deleteIdentity(id: UUID, userID: UUID) async throws -> Bool

    /// Records an ID-token nonce as used until `expiresAt`.
    /// - Returns: `false` when it was used already (a replay).
    func consumeNonce(provider: String, hash: String, expiresAt: Date, now: Date) async throws -> Bool

    /// Serializes key creation between instances starting together (held until commit).
    func lockSigningKeys() async throws
    func signingKeys() async throws -> [SigningKeyRecord]
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    /// Removes a key; tokens it signed stop verifying.
    func deleteSigningKey(kid: String) async throws -> Bool

    func appendAudit(_ entry: AuditEntry) async throws
    func auditEntries(limit: Int) async throws -> [AuditEntry]
}

/// A stored JWT signing key.
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    public var algorithm: String
    public var privatePEM: String
    public var createdAt: Date

    public init(kid: String, algorithm: String, privatePEM: String, createdAt: Date) {
        self.kid = kid
        self.algorithm = algorithm
        self.privatePEM = privatePEM
        self.createdAt = createdAt
    }
}

/// One audit-log line: who did what, from where. Never a secret.
public struct AuditEntry: Sendable, Equatable {
    public var at: Date
    public var action: String
    public var actorID: UUID?
    public var ip: String?
    public var detail: String?

    public init(at: Date, action: String, actorID: UUID? = nil, ip: String? = nil, detail: String? = nil) {
        self.at = at
        self.action = action
        self.actorID = actorID
        self.ip = ip
        self.detail = detail
    }
}

/// A storage failure the API maps to a specific answer.
public enum StorageError: Error, Equatable {
    /// An insert or update hit the unique e-mail index.
    case duplicateEmail
    /// An insert hit the unique (provider, subject) index of identities.
    case duplicateIdentity
    /// A transaction ended without a result (a storage fault).
    case noResult
}
