/// Where the signed-in session is kept between launches.
///
/// Gatehouse ships ``FileSessionStore`` (the Linux default: one 0600 JSON file),
/// ``KeychainSessionStore`` (Apple platforms) and ``InMemorySessionStore`` (tests, previews).
/// The calls are synchronous and may block (a keychain call can take a while at launch);
/// ``AuthService`` runs them one at a time, in the order it issued them, on a serial queue of
/// its own. A store whose reads cannot block (``loadsWithoutBlocking``) is read on the main actor
/// at launch when nothing else is queued, which saves two thread hops.
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

    /// Whether ``load()`` returns in microseconds and never waits on another process (a small
    /// file, memory), so that ``AuthService`` may read it on the main actor at launch instead of
    /// hopping to its store queue and back. `false` by default: a keychain call can wait on the
    /// security daemon at launch.
    var loadsWithoutBlocking: Bool { get }
}

extension SessionStore {
    /// No notices.
    public func takeNotices() -> [StorageNotice] { [] }

    /// No cross-process lock.
    public var refreshLock: RefreshLock? { nil }

    /// Loads may block: they run on the store queue.
    public var loadsWithoutBlocking: Bool { false }
}
