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

    init(_ store: any SessionStore) {
        self.store = store
    }

    func run<Value: Sendable>(_ body: @escaping @Sendable (any SessionStore) throws -> Value) async -> Outcome<Value> {
        await withCheckedContinuation { continuation in
            let store = self.store
            queue.async {
                let result = Result { try body(store) }.mapError(AuthError.wrapping)
                continuation.resume(returning: Outcome(result: result, notices: store.takeNotices()))
            }
        }
    }
}
