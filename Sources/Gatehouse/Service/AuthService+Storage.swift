import Foundation

extension AuthService {
    /// Reads the store: on the main actor when its reads cannot block and nothing is queued
    /// before this read, on the store queue otherwise.
    func loadStored() async throws -> Session? {
        if let outcome = storeQueue.loadInline() {
            return try published(outcome)
        }
        return try await storeCall { try $0.load() }
    }

    /// Writes the session to the store off the main actor. A failure keeps the session for this
    /// run and is published: ``storageError``, ``AuthEvent/storageFailed(_:)`` and the log.
    func persist(_ new: Session) async {
        do {
            try await storeCall { try $0.save(new) }
            storageError = nil
        } catch {
            let authError = AuthError.wrapping(error)
            configuration.log(.error, "Session could not be stored", ["code": authError.code.rawValue])
            storageError = authError
            events.send(.storageFailed(authError))
        }
    }

    /// Removes the stored session off the main actor.
    func deleteStored() async throws {
        try await storeCall { try $0.delete() }
        storageError = nil
    }

    private func storeCall<Value: Sendable>(
        _ body: @escaping @Sendable (any SessionStore) throws -> Value
    ) async throws -> Value {
        try published(await storeQueue.run(body))
    }

    /// Reports a store call's notices and returns its result.
    private func published<Value: Sendable>(_ outcome: SessionStoreQueue.Outcome<Value>) throws -> Value {
        for notice in outcome.notices {
            switch notice {
            case .fellBack(let error):
                configuration.log(.warning, "Session store fell back", ["code": error.code.rawValue])
                events.send(.storageFallback(error))
            }
        }
        return try outcome.result.get()
    }

    /// Makes sure the stored session has been read in this process before a sign-in replaces
    /// it, so that a store that could not be read (a keychain locked before the first unlock)
    /// is never overwritten.
    ///
    /// - Parameter keepingAStoredSession: Whether a session found by reading now must be kept
    ///   rather than replaced: true for guest sign-in, which would otherwise replace a real
    ///   account that simply had not been restored yet.
    /// - Throws: the store's error while it cannot be read; ``AuthError/storedSessionRestored()``
    ///   when `keepingAStoredSession` and reading now found a signed-in session.
    func requireStoreRead(keepingAStoredSession: Bool = false) async throws {
        if storeHasBeenRead { return }
        await restoreStoredSession()
        if let error = session.error { throw error }
        if keepingAStoredSession, currentUser != nil { throw AuthError.storedSessionRestored() }
    }
}
