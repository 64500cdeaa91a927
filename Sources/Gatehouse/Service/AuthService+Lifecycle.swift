import Foundation

extension AuthService {
    /// Runs `body` as the current operation: pending first, then success or error.
    func operation<Result>(_ body: () async throws -> Result) async throws -> Result {
        operationStatus = .pending
        operationError = nil
        do {
            let result = try await body()
            operationStatus = .success
            return result
        } catch {
            let authError = AuthError.wrapping(error)
            operationStatus = .error
            operationError = authError
            throw authError
        }
    }

    /// Ends the current generation: in-flight refreshes and verification are abandoned.
    func beginGeneration() {
        generation += 1
        refreshFlight = nil
        verification?.cancel()
        verification = nil
    }

    /// Adopts a session the backend just issued, if nothing replaced the session meanwhile.
    func establish(_ new: Session, startedIn started: Int) throws {
        guard started == generation else { throw AuthError.sessionSuperseded() }
        let previous = currentUser
        beginGeneration()
        persist(new)
        tokens = new
        session = .success(new.user)
        isSessionVerified = true
        if previous?.id == new.user.id {
            events.send(.userUpdated(new.user))
        } else {
            events.send(.signedIn(new.user))
        }
    }

    /// Writes the session to the store; a failure keeps the session for this run and is logged.
    func persist(_ new: Session) {
        do {
            try store.save(new)
        } catch {
            configuration.log(.error, "Session could not be stored", ["error": "\(AuthError.wrapping(error).code)"])
        }
    }

    /// Forgets the session locally: store first, then state, then the event.
    /// - Returns: the store error, if the stored session could not be deleted.
    @discardableResult
    func endSessionLocally(event: AuthEvent) -> AuthError? {
        let hadUser = currentUser != nil || tokens != nil
        beginGeneration()
        var failure: AuthError?
        do {
            try store.delete()
        } catch {
            failure = AuthError.wrapping(error)
            configuration.log(.error, "Stored session could not be deleted", ["error": "\(failure!.code)"])
        }
        tokens = nil
        session = .success(nil)
        isSessionVerified = false
        if hadUser { events.send(event) }
        return failure
    }

    /// Reacts to a definitive server answer about `rejected`: adopts a newer stored session
    /// written by another process when there is one, else signs out locally.
    func handleSessionEnded(by error: AuthError, rejected: Session) {
        if error.code == .refreshTokenAlreadyUsed,
            let stored = try? store.load(),
            stored.user.id == rejected.user.id,
            stored.refreshToken != rejected.refreshToken
        {
            configuration.log(.info, "Adopted a session refreshed by another process")
            tokens = stored
            return
        }
        configuration.log(.info, "Server ended the session", ["code": error.code.rawValue])
        endSessionLocally(event: error.code == .userNotFound ? .userDeleted : .signedOut)
    }

    /// Replaces the signed-in user's profile after the backend reported a change.
    func applyUser(_ user: User) {
        guard var current = tokens, current.user.id == user.id, current.user != user else { return }
        current.user = user
        tokens = current
        persist(current)
        session = .success(user)
        events.send(.userUpdated(user))
    }
}
