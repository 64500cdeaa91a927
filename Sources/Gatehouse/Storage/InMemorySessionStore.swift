/// A session store that keeps the session in memory only: for tests, previews and programs
/// that must not persist credentials.
///
/// Tests can make the next calls fail with ``failLoads(with:)`` and ``failSaves(with:)``.
public final class InMemorySessionStore: SessionStore {
    private struct State {
        var session: Session?
        var loadFailure: AuthError?
        var saveFailure: AuthError?
        var deleteFailure: AuthError?
        var loads = 0
        var saves = 0
        var deletes = 0
    }

    private let state: Locked<State>

    /// Creates a store, optionally holding a session already.
    public init(session: Session? = nil) {
        state = Locked(State(session: session))
    }

    public func load() throws -> Session? {
        try state.withLock { state in
            state.loads += 1
            if let failure = state.loadFailure { throw failure }
            return state.session
        }
    }

    /// Memory never blocks.
    public var loadsWithoutBlocking: Bool { true }

    public func save(_ session: Session) throws {
        try state.withLock { state in
            state.saves += 1
            if let failure = state.saveFailure { throw failure }
            state.session = session
        }
    }

    public func delete() throws {
        try state.withLock { state in
            state.deletes += 1
            if let failure = state.deleteFailure { throw failure }
            state.session = nil
        }
    }

    /// The stored session, read without counting as a load or failing.
    public var storedSession: Session? { state.withLock { $0.session } }

    /// How many times ``load()``, ``save(_:)`` and ``delete()`` were called.
    public var callCounts: (loads: Int, saves: Int, deletes: Int) {
        state.withLock { ($0.loads, $0.saves, $0.deletes) }
    }

    /// Makes every later ``load()`` throw `error`; `nil` restores normal behaviour.
    public func failLoads(with error: AuthError?) {
        state.withLock { $0.loadFailure = error }
    }

    /// Makes every later ``save(_:)`` throw `error`; `nil` restores normal behaviour.
    public func failSaves(with error: AuthError?) {
        state.withLock { $0.saveFailure = error }
    }

    /// Makes every later ``delete()`` throw `error`; `nil` restores normal behaviour.
    public func failDeletes(with error: AuthError?) {
        state.withLock { $0.deleteFailure = error }
    }
}
