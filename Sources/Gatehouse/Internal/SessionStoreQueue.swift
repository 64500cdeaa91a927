import Dispatch

/// Runs a session store's blocking calls off the main actor, one at a time, in the order they
/// were issued: each call is put on a serial queue before the caller suspends, so a save issued
/// before a delete always lands before it.
final class SessionStoreQueue: Sendable {
    /// What one store call gave: its result and the notices the store gathered.
    struct Outcome<Value: Sendable>: Sendable {
        var result: Result<Value, AuthError>
        var notices: [StorageNotice]
    }

    let store: any SessionStore
    private let queue = DispatchQueue(label: "gatehouse.session-store", qos: .userInitiated)
    /// Calls put on the queue and not finished yet.
    private let pending = Locked(0)

    init(_ store: any SessionStore) {
        self.store = store
    }

    func run<Value: Sendable>(_ body: @escaping @Sendable (any SessionStore) throws -> Value) async -> Outcome<Value> {
        pending.withLock { $0 += 1 }
        return await withCheckedContinuation { continuation in
            let (store, pending) = (self.store, self.pending)
            queue.async {
                let result = Result { try body(store) }.mapError(AuthError.wrapping)
                let outcome = Outcome(result: result, notices: store.takeNotices())
                pending.withLock { $0 -= 1 }
                continuation.resume(returning: outcome)
            }
        }
    }

    /// Reads the store on the caller's thread, when the store's reads cannot block and no call
    /// is queued or running (so the read cannot overtake a save or a delete issued before it);
    /// `nil` otherwise, and the caller goes through ``run(_:)``. Callers issue every call from
    /// one actor, so nothing can be queued between the check and the read.
    func loadInline() -> Outcome<Session?>? {
        guard store.loadsWithoutBlocking, pending.withLock({ $0 == 0 }) else { return nil }
        let result = Result { try store.load() }.mapError(AuthError.wrapping)
        return Outcome(result: result, notices: store.takeNotices())
    }
}
