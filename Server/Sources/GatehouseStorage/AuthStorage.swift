/// Where the server keeps users, sessions, codes, keys and the audit log.
///
/// One interface, one implementation per database (``SQLiteStorage``, ``PostgresStorage``);
/// ``ServerDatabase`` opens the one `GATEHOUSE_DATABASE_URL` names. Every call inside one
/// ``transaction(_:)`` commits together or not at all; ``read(_:)`` offers reads only.
///
/// A transaction body may run more than once before its caller hears back: SQLite's group
/// commit runs a batch of bodies in one transaction and, when one of them throws, rolls the
/// batch back and runs every body again (PostgreSQL may come to retry as well). A body must
/// therefore touch nothing but the transaction it is given: no counters, no logging of
/// outcomes, no state outside it (mail is a row of the transaction: the outbox). Return what
/// should happen afterwards and do it once the call has returned.
///
/// ```swift
/// let mail = try await storage.transaction { tx in
///     try await tx.insertUser(user)
///     return try await delivery.issue(.signup, for: user.id, to: email, spacing: .ignore, in: tx, now: now)
/// }
/// delivery.send(mail)  // after the commit: wakes the outbox's sender
/// ```
public protocol AuthStorage: Sendable {
    /// Applies the named, ordered migrations that are not applied yet.
    func migrate() async throws

    /// Runs `body` in one transaction: it commits when `body` returns and rolls back when it throws.
    ///
    /// `body` may run more than once (see above): it must have no effect outside `tx`.
    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (_ tx: any StorageTransaction) async throws -> Result
    )
        async throws -> Result

    /// Runs `body`, a single write statement that is atomic by itself, in the cheapest way the
    /// database commits it: PostgreSQL sends it without `BEGIN` and `COMMIT` (one round trip),
    /// SQLite runs it as ``transaction(_:)`` (sharing a group commit). As with
    /// ``transaction(_:)``, `body` may run more than once and must have no effect outside `tx`.
    func autocommit<Result: Sendable>(
        _ body: @escaping @Sendable (_ tx: any StorageTransaction) async throws -> Result
    )
        async throws -> Result

    /// Runs `body` outside any write transaction, for reads only: each statement sees the latest
    /// committed data and waits for no writer (SQLite: a query-only WAL reader connection).
    /// Use ``transaction(_:)`` when several reads must agree or anything is written.
    func read<Result: Sendable>(
        _ body: @escaping @Sendable (_ reader: any StorageReader) async throws -> Result
    )
        async throws -> Result

    /// Runs `read` as ``read(_:)`` does, then, when `write` gives a body for what it read, runs
    /// that body as ``autocommit(_:)`` does (a single write statement, atomic by itself, and
    /// anything it reads afterwards), and returns both results. PostgreSQL runs the two on one
    /// pooled connection, leased once; SQLite reads on a reader and writes in the writer's
    /// group commit. The write body may run more than once and must have no effect outside `tx`.
    ///
    /// For a read whose result decides a conditional write (a refresh token's rotation): the
    /// write must hold by its own condition, since another request may write between the two.
    func read<Value: Sendable, Result: Sendable>(
        _ read: @escaping @Sendable (_ reader: any StorageReader) async throws -> Value,
        thenAutocommit write:
            @escaping @Sendable (_ value: Value) -> (
                @Sendable (_ tx: any StorageTransaction) async throws -> Result
            )?
    ) async throws -> (read: Value, written: Result?)

    /// Makes rows rewritten so far the only copy on disk: SQLite moves its WAL into the main
    /// file and empties it (with `secure_delete` on, the old bytes are zeroed); PostgreSQL does
    /// nothing (a dump holds live rows only).
    func checkpoint() async throws

    /// Closes the database.
    func close() async throws
}

extension AuthStorage {
    public func autocommit<Result: Sendable>(
        _ body: @escaping @Sendable (_ tx: any StorageTransaction) async throws -> Result
    )
        async throws -> Result
    {
        try await transaction(body)
    }

    public func read<Value: Sendable, Result: Sendable>(
        _ read: @escaping @Sendable (_ reader: any StorageReader) async throws -> Value,
        thenAutocommit write:
            @escaping @Sendable (_ value: Value) -> (
                @Sendable (_ tx: any StorageTransaction) async throws -> Result
            )?
    ) async throws -> (read: Value, written: Result?) {
        let value = try await self.read(read)
        guard let body = write(value) else { return (value, nil) }
        return (value, try await autocommit(body))
    }
}
