public import Foundation

/// A refresh in progress, joined by every caller of the same generation.
struct RefreshFlight {
    let id: Int
    let generation: Int
    let task: Task<Session, any Error>
}

extension AuthService {
    /// A valid access token for the signed-in user, refreshed first when it is within
    /// ``Configuration/refreshLeeway`` of expiry.
    ///
    /// Any number of concurrent callers share one refresh request.
    ///
    /// Before the session has been restored, this restores it first. While the store cannot be
    /// read (a keychain locked before the device's first unlock) it throws the store's error,
    /// never ``ErrorCode/notSignedIn``: nobody can tell yet whether a user is signed in.
    ///
    /// - Throws: the store's error (``ErrorCode/storageLocked``) while the session could not be
    ///   restored; ``ErrorCode/notSignedIn`` when nobody is signed in; the refresh's error when
    ///   refreshing fails (a definitive one also signs the user out).
    public func accessToken() async throws -> String {
        await restoreSessionIfNeeded()
        if let error = session.error { throw error }
        guard let current = tokens else { throw AuthError.notSignedIn() }
        if !current.expires(within: configuration.refreshLeeway, of: configuration.clock.now()) {
            return current.accessToken
        }
        return try await refreshedSession().accessToken
    }

    /// When the current access token expires (by this device's clock), or `nil` when signed out.
    public var accessTokenExpiresAt: Date? { tokens?.expiresAt }

    /// The current tokens, refreshed now (joining a refresh already running).
    @discardableResult
    public func refreshSession() async throws -> Session {
        try await refreshedSession()
    }

    func refreshedSession() async throws -> Session {
        guard let entry = tokens else { throw AuthError.notSignedIn() }
        if let flight = refreshFlight, flight.generation == generation {
            return try await flight.task.value
        }
        let started = generation
        let id = nextFlightID
        nextFlightID += 1
        let task = Task<Session, any Error> {
            defer { if self.refreshFlight?.id == id { self.refreshFlight = nil } }
            // Processes sharing the store refresh one at a time; one that waited finds the new
            // pair in the store below and adopts it. The lock is held inside a background
            // activity and let go when it expires (RefreshLockHold). Without the lock (none, no
            // background time, busy while in the background, or timed out) the server's reuse
            // interval still answers a concurrent refresh.
            let backgroundState = self.backgroundState
            let hold = await RefreshLockHold.take(
                self.store.refreshLock,
                activity: self.configuration.backgroundActivity,
                isInBackground: { backgroundState.withLock { $0 } },
                log: self.configuration.log
            )
            defer { hold?.release() }
            var current = entry
            // Another process sharing the store (an app extension, a second CLI run) may have
            // rotated the token already: adopt its session rather than presenting a used token.
            let stored = try? await self.loadStored()
            guard started == self.generation else { throw AuthError.sessionSuperseded() }
            if let stored, stored.user.id == entry.user.id, stored.refreshToken != entry.refreshToken {
                self.configuration.log(.info, "Adopted a session refreshed by another process")
                self.tokens = stored
                current = stored
                if !stored.expires(within: self.configuration.refreshLeeway, of: self.configuration.clock.now()) {
                    return stored
                }
            }
            let fresh: Session
            do {
                fresh = try await self.backend.refresh(current)
            } catch {
                let authError = AuthError.wrapping(error)
                guard started == self.generation else { throw AuthError.sessionSuperseded() }
                if authError.endsSession { await self.handleSessionEnded(by: authError, rejected: current) }
                throw authError
            }
            guard started == self.generation else { throw AuthError.sessionSuperseded() }
            let kept = fresh.keepingAppleSignIn(of: current)
            await self.adoptRefreshed(kept)
            return kept
        }
        refreshFlight = RefreshFlight(id: id, generation: started, task: task)
        return try await task.value
    }

    private func adoptRefreshed(_ fresh: Session) async {
        let previousUser = tokens?.user
        tokens = fresh
        isSessionVerified = true
        if previousUser != fresh.user {
            session = .success(fresh.user)
            events.send(.userUpdated(fresh.user))
        }
        events.send(.tokenRefreshed(fresh.user))
        await persist(fresh)
    }
}
