/// Where the signed-in session is kept between launches.
///
/// Gatehouse ships ``FileSessionStore`` (the Linux default: one 0600 JSON file),
/// ``KeychainSessionStore`` (Apple platforms) and ``InMemorySessionStore`` (tests, previews).
/// The calls are synchronous and may block (a keychain call can take a while at launch);
/// ``AuthService`` never makes them on the main actor: it runs them one at a time, in the order
/// it issued them, on a serial queue of its own.
///
/// Implementations throw ``AuthError`` values and keep three outcomes apart: nothing stored
/// (`load()` returns `nil`), a store that cannot be read right now (``ErrorCode/storageLocked``,
/// ``ErrorCode/storageFailure``), and stored bytes that cannot be decoded
/// (``ErrorCode/storageCorrupt``). Only the first means "signed out".
///
/// ```swift
/// let store = InMemorySessionStore()
/// let service = AuthService(backend: InMemoryAuthBackend(), store: store)
/// ```
public protocol SessionStore: Sendable {
    /// Reads the stored session; `nil` when none is stored.
    func load() throws -> Session?

    /// Replaces the stored session, atomically: a reader sees the old or the new one, never a mix.
    func save(_ session: Session) throws

    /// Removes the stored session. Removing when nothing is stored succeeds.
    func delete() throws

    /// Notices gathered since the last call (a fallback taken, for example), each reported once.
    /// Stores without any return an empty list (the default).
    func takeNotices() -> [StorageNotice]

    /// The lock that processes sharing this store hold around a refresh, or `nil` when only
    /// one process uses it (the default).
    var refreshLock: RefreshLock? { get }
}

extension SessionStore {
    /// No notices.
    public func takeNotices() -> [StorageNotice] { [] }

    /// No cross-process lock.
    public var refreshLock: RefreshLock? { nil }
}
