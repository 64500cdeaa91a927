import Foundation

extension AuthService {
    /// Restores the stored session and publishes it at once, with no network on the way.
    ///
    /// Call it at launch (an `AuthGuardView` does, through ``restoreSessionIfNeeded()``). The
    /// session becomes `.success(user)` or `.success(nil)` as soon as the store is read, even
    /// when the access token has expired; verification (a refresh or a user lookup) then runs in
    /// the background and signs the user out only on a definitive server answer. A store that
    /// cannot be read (a keychain locked before the device's first unlock) yields `.failure`
    /// and leaves the stored session untouched; the service restores again by itself when
    /// ``protectedDataDidBecomeAvailable()`` is called (on UIKit platforms, when the system
    /// says protected data is available or the app becomes active), and calling this method
    /// again retries too. A restore already running is joined, not restarted.
    public func restoreSession() async {
        operationStatus = .pending
        operationError = nil
        await restoreStoredSession()
        if let error = session.error {
            operationStatus = .error
            operationError = error
        } else {
            operationStatus = .success
        }
    }

    /// Restores the session only when that has not started yet (``session`` is
    /// `.notInitiated`), joining a restore that is running: for views that may appear more
    /// than once (a second window, a view shown again), so that appearing never restarts the
    /// restore or cancels a sign-in in flight.
    public func restoreSessionIfNeeded() async {
        switch session {
        case .notInitiated: await restoreSession()
        case .loading: await joinRunningRestore()
        case .success, .failure: return
        }
    }

    /// Tells the service that protected data (the keychain, protected files) can be read now.
    ///
    /// When the last restore failed for a reason that may pass (a locked keychain,
    /// ``AuthError/isRetryable``), it runs again; a failure that cannot pass (an unreadable
    /// item, a missing entitlement) waits for the person (``AuthGate/SessionErrorAction``).
    /// UIKit platforms call this by themselves (`protectedDataDidBecomeAvailableNotification`,
    /// and when the app becomes active); call it from other lifecycle signals you have.
    public func protectedDataDidBecomeAvailable() async {
        guard case .failure(let error) = session, error.isRetryable else { return }
        await restoreSession()
    }

    /// Tells the service that the app became active. The service observes this itself on iOS,
    /// iPadOS, Mac Catalyst, tvOS, visionOS (UIKit), macOS (AppKit) and watchOS (WatchKit).
    ///
    /// A restore that failed for a reason that may pass runs again, and Sign in with Apple is
    /// asked about a session it opened on this device, at most every
    /// ``Configuration/appleCredentialCheckInterval`` (``checkAppleCredential()``).
    public func applicationDidBecomeActive() async {
        applicationWillEnterForeground()
        await protectedDataDidBecomeAvailable()
        await checkAppleCredential(.activation)
    }

    /// Tells the service that the app entered the background (observed by itself on UIKit
    /// platforms and watchOS): until it comes back, a refresh never waits for the
    /// cross-process refresh lock, which iOS does not let a suspended app hold.
    public func applicationDidEnterBackground() {
        backgroundState.withLock { $0 = true }
    }

    /// Tells the service that the app is coming back to the foreground.
    public func applicationWillEnterForeground() {
        backgroundState.withLock { $0 = false }
    }

    /// Reads the store and publishes what it holds; joins a read already running.
    ///
    /// The read runs in the caller's task, with no task of its own: a store that reads without
    /// blocking is read on the main actor, so the stored session is published before any thread
    /// hop, and the background verification it starts runs once the caller has its answer.
    func restoreStoredSession() async {
        if restoreWaiters != nil {
            await joinRunningRestore()
            return
        }
        restoreWaiters = []
        await readStoreAndPublish()
        let waiters = restoreWaiters ?? []
        restoreWaiters = nil
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for the restore that is running, if any.
    private func joinRunningRestore() async {
        guard restoreWaiters != nil else { return }
        await withCheckedContinuation { restoreWaiters?.append($0) }
    }

    private func readStoreAndPublish() async {
        if case .success = session, tokens != nil {
            startVerification()
            return
        }
        session = .loading
        let started = generation
        let stored: Session?
        do {
            stored = try await loadStored()
        } catch {
            let authError = AuthError.wrapping(error)
            guard started == generation else { return }
            configuration.log(.warning, "Stored session could not be read", ["code": authError.code.rawValue])
            session = .failure(authError)
            return
        }
        guard started == generation else { return }
        beginGeneration()
        storeHasBeenRead = true
        tokens = stored
        session = .success(stored?.user)
        isSessionVerified = false
        events.send(.initialSession(stored?.user))
        if stored != nil {
            startVerification()
            startAppleCredentialCheck(.launch)
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
                    await applyUser(user)
                }
                if started == generation { isSessionVerified = true }
                return
            } catch {
                let authError = AuthError.wrapping(error)
                guard started == generation else { return }
                if authError.endsSession {
                    if let rejected = tokens { await handleSessionEnded(by: authError, rejected: rejected) }
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
