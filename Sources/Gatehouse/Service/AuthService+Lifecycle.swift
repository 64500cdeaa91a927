import Foundation

extension AuthService {
    /// Runs `body` as the current operation: pending first, then success or error.
    func operation<Result>(_ body: () async throws -> Result) async throws -> Result {
        operationStatus = .pending
        operationError = nil
        do {
            // Sign-ins inside send the configured device label (``SignInDevice``).
            let result = try await SignInDevice.$name.withValue(configuration.deviceName) { try await body() }
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
    ///
    /// The state is published at once; the write to the store is queued at once too (so it
    /// lands before any later write or delete) and awaited, and a failed write is published.
    ///
    /// - Parameter appleSignInUserID: The Apple user whose Sign in with Apple on this device
    ///   opened the session (``Session/appleSignInUserID``); `nil` for any other sign-in.
    func establish(_ new: Session, startedIn started: Int, appleSignInUserID: String? = nil) async throws {
        var new = new
        new.appleSignInUserID = appleSignInUserID
        guard started == generation else { throw AuthError.sessionSuperseded() }
        guard storeHasBeenRead else {
            // Never overwrite a store this process has not read (a locked keychain may hold
            // another user's session); sign-ins check this before calling the backend.
            throw AuthError.storedSessionRestored()
        }
        let previous = currentUser
        beginGeneration()
        tokens = new
        session = .success(new.user)
        isSessionVerified = true
        sessionEndReason = nil
        if previous?.id == new.user.id {
            events.send(.userUpdated(new.user))
        } else {
            events.send(.signedIn(new.user))
        }
        await persist(new)
    }

    /// Forgets the session locally: store first, then state, then the event.
    /// - Returns: the store error, if the stored session could not be deleted.
    @discardableResult
    func endSessionLocally(event: AuthEvent) async -> AuthError? {
        let hadUser = currentUser != nil || tokens != nil
        beginGeneration()
        tokens = nil
        let ending = generation
        var failure: AuthError?
        do {
            try await deleteStored()
            storeHasBeenRead = true
        } catch {
            failure = AuthError.wrapping(error)
            configuration.log(.error, "Stored session could not be deleted", ["code": failure!.code.rawValue])
        }
        guard ending == generation else { return failure }
        session = .success(nil)
        isSessionVerified = false
        if hadUser { events.send(event) }
        return failure
    }

    /// Reacts to a definitive server answer about `rejected`: adopts a newer stored session
    /// written by another process when there is one, else signs out locally.
    func handleSessionEnded(by error: AuthError, rejected: Session) async {
        let started = generation
        if error.code == .refreshTokenAlreadyUsed,
            let stored = try? await loadStored(),
            stored.user.id == rejected.user.id,
            stored.refreshToken != rejected.refreshToken
        {
            guard started == generation else { return }
            configuration.log(.info, "Adopted a session refreshed by another process")
            tokens = stored
            return
        }
        guard started == generation else { return }
        configuration.log(.info, "Server ended the session", ["code": error.code.rawValue])
        await endSessionLocally(event: error.code == .userNotFound ? .userDeleted : .signedOut)
    }

    /// Replaces the signed-in user's profile after the backend reported a change.
    func applyUser(_ user: User) async {
        guard var current = tokens, current.user.id == user.id, current.user != user else { return }
        let learnedAppleIdentity = current.user.appleUserID == nil && user.appleUserID != nil
        current.user = user
        tokens = current
        session = .success(user)
        events.send(.userUpdated(user))
        await persist(current)
        // A session that Sign in with Apple opened, stored before users carried their
        // identities, is asked about as soon as the Apple identity is known.
        if learnedAppleIdentity { startAppleCredentialCheck(.identityLearned) }
    }
}
