import Foundation

extension AuthService {
    /// Asks Sign in with Apple whether the Apple ID that opened the signed-in session still
    /// authorizes the app, and signs the user out when it definitively does not.
    ///
    /// Only a session opened by Sign in with Apple **on this device** is asked about
    /// (``Session/appleUserIDToCheck``): `getCredentialState(forUserID:)` answers for the Apple
    /// Account signed in on this device, so a user who linked Apple on their iPhone and signs in
    /// with a password, a code or a passkey on an iPad, a Mac or a work phone would get
    /// `notFound` there. The service calls this itself after restoring a stored session at
    /// launch, when a user lookup first names the Apple identity of a session stored without
    /// it, when the app becomes active (at most every
    /// ``Configuration/appleCredentialCheckInterval``, and not after a failure that cannot
    /// pass) and when Sign in with Apple posts `credentialRevokedNotification`. In a Simulator
    /// it never asks unless ``Configuration/checksAppleCredentialInSimulator`` is set (iOS 18
    /// Simulators answer `revoked` for everyone). `revoked` and `notFound` end the session as a
    /// sign-out does (stored session first, then the state, ``AuthEvent/signedOut``, then the
    /// server, best-effort) and set ``sessionEndReason`` to ``ErrorCode/appleCredentialRevoked``;
    /// `authorized`, `transferred`, an error or no answer within
    /// ``Configuration/appleCredentialCheckTimeout`` keep the session, so an offline device is
    /// never signed out. A check already running is joined.
    ///
    /// - Returns: Apple's answer, or `nil` when nobody was asked or no answer came.
    @discardableResult
    public func checkAppleCredential() async -> AppleCredentialState? {
        await checkAppleCredential(.request)
    }

    /// Waits for the Sign in with Apple check, if one is running. Useful in tests; apps observe
    /// ``session``.
    public func waitForAppleCredentialCheck() async {
        _ = await appleCredentialCheck?.value
    }

    /// Runs (or joins) a check that `trigger` started, if the schedule allows one.
    @discardableResult
    func checkAppleCredential(_ trigger: AppleCredentialCheckSchedule.Trigger) async -> AppleCredentialState? {
        if let running = appleCredentialCheck { return await running.value }
        guard let task = startAppleCredentialCheck(trigger) else { return nil }
        return await task.value
    }

    /// Starts the check in the background when there is someone to ask about and the schedule
    /// allows it.
    @discardableResult
    func startAppleCredentialCheck(_ trigger: AppleCredentialCheckSchedule.Trigger) -> Task<AppleCredentialState?, Never>? {
        if let running = appleCredentialCheck { return running }
        guard let provider = configuration.appleCredentialState, let current = tokens,
            let appleUserID = current.appleUserIDToCheck
        else { return nil }
        let skipsSimulator = configuration.environment.isSimulator && !configuration.checksAppleCredentialInSimulator
        if let skip = appleCredentialSchedule.skip(
            trigger,
            generation: generation,
            now: configuration.clock.now(),
            interval: configuration.appleCredentialCheckInterval,
            skipsSimulator: skipsSimulator
        ) {
            configuration.log(.debug, "Sign in with Apple not asked", ["reason": "\(skip)", "trigger": "\(trigger)"])
            return nil
        }
        let userID = current.user.id
        // The task starts only after this method returns (both on the main actor), so the
        // handle is set before the task clears it.
        let task = Task {
            defer { self.appleCredentialCheck = nil }
            return await self.runAppleCredentialCheck(provider, appleUserID: appleUserID, userID: userID)
        }
        appleCredentialCheck = task
        return task
    }

    private func runAppleCredentialCheck(
        _ provider: AppleCredentialStateProvider,
        appleUserID: String,
        userID: String
    ) async -> AppleCredentialState? {
        let started = generation
        let answer = await Self.ask(
            provider,
            about: appleUserID,
            within: configuration.appleCredentialCheckTimeout,
            clock: configuration.clock
        )
        let state: AppleCredentialState
        switch answer {
        case .success(let answered):
            state = answered
        case .failure(let error):
            configuration.log(
                .info,
                "Sign in with Apple gave no answer; session kept",
                ["code": error.code.rawValue, "retryable": "\(error.isRetryable)"]
            )
            appleCredentialSchedule.recordFailure(error, generation: started)
            return nil
        }
        guard state.endsSession, started == generation, let ending = tokens, ending.user.id == userID else {
            return state
        }
        configuration.log(.info, "Sign in with Apple no longer authorizes the user; signing out", ["state": "\(state)"])
        sessionEndReason = .appleCredentialRevoked(state)
        await endSessionLocally(event: .signedOut)
        do {
            try await backend.signOut(ending, scope: .local)
        } catch {
            configuration.log(
                .info,
                "Server sign-out failed; signed out locally",
                ["code": AuthError.wrapping(error).code.rawValue]
            )
        }
        return state
    }

    /// Apple's answer, or an error when it threw or did not answer within `timeout` (a provider
    /// that never returns is left behind, not awaited).
    private nonisolated static func ask(
        _ provider: AppleCredentialStateProvider,
        about appleUserID: String,
        within timeout: Duration,
        clock: AuthClock
    ) async -> Result<AppleCredentialState, AuthError> {
        await withCheckedContinuation { continuation in
            let answered = Locked(false)
            let finish: @Sendable (Result<AppleCredentialState, AuthError>) -> Void = { result in
                let first = answered.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: result) }
            }
            let timer = Task {
                do { try await clock.sleep(timeout) } catch { return }
                finish(.failure(.appleCredentialCheckTimedOut()))
            }
            Task {
                do {
                    finish(.success(try await provider.credentialState(appleUserID)))
                } catch {
                    finish(.failure(.wrapping(error)))
                }
                timer.cancel()
            }
        }
    }
}
