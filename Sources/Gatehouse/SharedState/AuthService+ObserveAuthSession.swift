import Foundation

extension AuthService {
    /// Calls `receiver` with the current ``authSession`` at once, then with every value that
    /// differs from the last one delivered, on the main actor, until the returned observation
    /// is cancelled or the service is released.
    ///
    /// ```swift
    /// let observation = auth.observeAuthSession { session in
    ///     statusLabel.text = session.isLoading ? "Signing in…" : session.state.description
    /// }
    /// ```
    public func observeAuthSession(
        _ receiver: @escaping @MainActor @Sendable (AuthSession) -> Void
    ) -> AuthSessionObservation {
        let observation = AuthSessionObservation(receiver: receiver)
        observation.start(observing: self)
        return observation
    }

    /// The same as ``observeAuthSession(_:)``, callable from any context, as a `SharedKey`'s
    /// `subscribe` is: on the main actor the first value is delivered before this returns;
    /// elsewhere the observation starts on the main actor shortly after.
    public nonisolated func subscribeToAuthSession(
        _ receiver: @escaping @MainActor @Sendable (AuthSession) -> Void
    ) -> AuthSessionObservation {
        let observation = AuthSessionObservation(receiver: receiver)
        onMainActor { service in observation.start(observing: service) }
        return observation
    }

    /// Hands the current ``authSession`` to `body` on the main actor: before this returns when
    /// called on the main actor, shortly after otherwise. For code that cannot await, such as
    /// a `SharedKey`'s `load`.
    public nonisolated func withAuthSession(_ body: @escaping @MainActor @Sendable (AuthSession) -> Void) {
        onMainActor { service in body(service.authSession) }
    }

    /// Runs `body` with the service on the main actor: synchronously when already there,
    /// otherwise in a task.
    private nonisolated func onMainActor(_ body: @escaping @MainActor @Sendable (AuthService) -> Void) {
        if MainActorContext.isCurrent {
            MainActor.assumeIsolated { body(self) }
        } else {
            Task { @MainActor in body(self) }
        }
    }
}
