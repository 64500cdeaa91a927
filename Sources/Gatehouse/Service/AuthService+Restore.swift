import Foundation

extension AuthService {
    /// Restores the stored session and publishes it at once, with no network on the way.
    ///
    /// Call it at launch (an `AuthGuardView` does). The session becomes `.success(user)` or
    /// `.success(nil)` as soon as the store is read, even when the access token has expired;
    /// verification (a refresh or a user lookup) then runs in the background and signs the
    /// user out only on a definitive server answer. A store that cannot be read yields
    /// `.failure` and leaves the stored session untouched: call this method again to retry.
    public func restoreSession() async {
        operationStatus = .pending
        operationError = nil
        if case .success = session, tokens != nil {
            operationStatus = .success
            startVerification()
            return
        }
        session = .loading
        let stored: Session?
        do {
            stored = try store.load()
        } catch {
            let authError = AuthError.wrapping(error)
            configuration.log(.warning, "Stored session could not be read", ["code": authError.code.rawValue])
            session = .failure(authError)
            operationStatus = .error
            operationError = authError
            return
        }
        beginGeneration()
        tokens = stored
        session = .success(stored?.user)
        isSessionVerified = false
        operationStatus = .success
        events.send(.initialSession(stored?.user))
        if stored != nil {
            startVerification()
        }
    }

    /// Waits for the background verification of the session, if one is running.
    ///
    /// Useful in command-line programs and tests; apps just observe ``isSessionVerified``.
    public func waitForVerification() async {
        await verification?.value
    }

    /// Verifies the session with the backend now (refreshing it when expired) and waits for the
    /// answer; joins a verification already running. Command-line programs that restore with
    /// ``Configuration/verifiesRestoredSession`` off call this when they need a checked session.
    public func verifySession() async {
        if verification == nil, tokens != nil {
            let started = generation
            verification = Task { await self.verify(startedIn: started) }
        }
        await verification?.value
    }

    func startVerification() {
        guard configuration.verifiesRestoredSession, tokens != nil else { return }
        verification?.cancel()
        let started = generation
        verification = Task { await self.verify(startedIn: started) }
    }

    private func verify(startedIn started: Int) async {
        defer { if started == generation { verification = nil } }
        var delays = configuration.verificationRetryDelays[...]
        var refreshedForBadJWT = false
        while !Task.isCancelled, started == generation, let current = tokens {
            do {
                if current.expires(within: configuration.refreshLeeway, of: configuration.clock.now())
                    || refreshedForBadJWT
                {
                    _ = try await refreshedSession()
                } else {
                    let user = try await backend.user(for: current)
                    guard started == generation else { return }
                    applyUser(user)
                }
                if started == generation { isSessionVerified = true }
                return
            } catch {
                let authError = AuthError.wrapping(error)
                guard started == generation else { return }
                if authError.endsSession {
                    if let rejected = tokens { handleSessionEnded(by: authError, rejected: rejected) }
                    return
                }
                if authError.code == .badJWT, !refreshedForBadJWT {
                    refreshedForBadJWT = true
                    continue
                }
                configuration.log(.info, "Session verification deferred", ["code": authError.code.rawValue])
                guard let delay = delays.popFirst() else { return }
                do { try await configuration.clock.sleep(delay) } catch { return }
            }
        }
    }
}
