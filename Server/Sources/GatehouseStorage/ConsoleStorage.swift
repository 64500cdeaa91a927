public import Foundation
import GatehouseServerSupport

/// A console operator: a user granted the role by `gatehouse-server operator grant`.
public struct OperatorRecord: Sendable, Equatable {
    /// The operator's user id.
    public var userID: UUID
    /// The operator's address when listed (the user's current `email`).
    public var email: String?
    /// When the role was granted.
    public var grantedAt: Date

    /// A record of `userID`'s role, granted at `grantedAt`.
    public init(userID: UUID, email: String?, grantedAt: Date) {
        self.userID = userID
        self.email = email
        self.grantedAt = grantedAt
    }
}

/// A console sign-in: the hash of its cookie's token, bound to the real session row it opened
/// (deleting that session deletes it) and to its operator.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// SHA-256 of the cookie's token, hex; the token itself is never stored.
    public var tokenHash: String
    /// The session row the console sign-in opened (password and TOTP, AAL2).
    public var sessionID: UUID
    /// The operator.
    public var userID: UUID
    /// When the operator signed in (the 12-hour limit counts from it).
    public var createdAt: Date
    /// The last request of this console session (the idle limit counts from it).
    public var lastSeenAt: Date

    /// A console session of `userID` bound to the session row `sessionID`.
    public init(tokenHash: String, sessionID: UUID, userID: UUID, createdAt: Date, lastSeenAt: Date) {
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.userID = userID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// A numbered audit-log line, as the console lists it.
public struct NumberedAuditEntry: Sendable, Equatable {
    /// The line's number: later lines have larger numbers (the console pages by it).
    public var id: Int
    /// The line.
    public var entry: AuditEntry
}

/// What the console's audit page asks for: lines about a user (as actor or subject), of an
/// action, in a time range, before a line number (keyset paging, newest first).
public struct AuditQuery: Sendable, Equatable {
    /// Lines where this user is the actor or the subject.
    public var user: UUID?
    /// Lines of this action (`login`, `admin_user_modified`, …).
    public var action: AuditAction?
    /// Lines written for a request from this client address (as the audit log spells it).
    public var address: String?
    /// Lines written at or after this time.
    public var from: Date?
    /// Lines written before this time.
    public var until: Date?
    /// Only lines numbered below this one (the previous page's last).
    public var before: Int?
    /// The most lines one answer holds.
    public var limit: Int = 50

    /// A query of the lines that match every filter given.
    public init(
        user: UUID? = nil,
        action: AuditAction? = nil,
        from: Date? = nil,
        until: Date? = nil,
        before: Int? = nil
    ) {
        self.user = user
        self.action = action
        self.from = from
        self.until = until
        self.before = before
    }
}

/// How many lines of an action the audit log holds for one day (UTC).
public struct DailyCount: Sendable, Equatable {
    /// The day, as whole days since 1970-01-01 (UTC).
    public var day: Int
    /// The action counted (`login`, `login_failed`).
    public var action: AuditAction
    /// How many lines.
    public var count: Int

    /// The count of `action` on `day`.
    public init(day: Int, action: AuditAction, count: Int) {
        self.day = day
        self.action = action
        self.count = count
    }
}

/// The console's reads (part of ``StorageReader``).
public protocol ConsoleReader: Sendable {
    /// Whether `userID` holds the operator role.
    func isOperator(userID: UUID) async throws -> Bool
    /// Whether any user holds it (the console is off until one does).
    func hasOperators() async throws -> Bool
    /// Every operator, oldest grant first.
    func operators() async throws -> [OperatorRecord]
    /// The console session whose token hashes to `tokenHash`.
    func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord?
    /// Audit lines matching `query`, newest first.
    func auditEntries(matching query: AuditQuery) async throws -> [NumberedAuditEntry]
    /// Per day since `since`, how many audit lines each of `actions` has (the overview's chart),
    /// from the `at` index's range.
    func dailyCounts(of actions: [AuditAction], since: Date) async throws -> [DailyCount]
    /// Users whose address starts with `prefix` (from the address index), by address.
    func users(emailPrefix prefix: String, limit: Int) async throws -> [UserRecord]
    /// A page of the users that match `query`'s filter, walking the creation-time index from its
    /// cursor and looking at no more than `query.examined` users.
    func users(matching query: ConsoleUserQuery) async throws -> ConsoleUserPage
}

/// The console's writes (part of ``StorageTransaction``).
public protocol ConsoleWriter: Sendable {
    /// Grants the role; returns `false` when the user held it already.
    func insertOperator(userID: UUID, at now: Date) async throws -> Bool
    /// Revokes the role and deletes the operator's console sessions; returns the ids of the
    /// session rows those console sessions were bound to, and whether the role was held.
    func deleteOperator(userID: UUID) async throws -> (held: Bool, sessions: [UUID])
    /// Stores a console session (at sign-in).
    func insertConsoleSession(_ session: ConsoleSessionRecord) async throws
    /// Moves a console session's last request time.
    func touchConsoleSession(tokenHash: String, at now: Date) async throws
    /// Deletes a console session; returns the session row it was bound to.
    func deleteConsoleSession(tokenHash: String) async throws -> UUID?
}
