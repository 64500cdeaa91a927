import Observation

/// A live view of an ``AuthService``'s ``AuthService/authSession``: it hands every new value to
/// its receiver, on the main actor, until it is cancelled.
///
/// Made by ``AuthService/observeAuthSession(_:)`` (on the main actor) or
/// ``AuthService/subscribeToAuthSession(_:)`` (from any context, as a `SharedKey` subscription
/// is), it delivers the current value first, then each value that differs from the last one it
/// delivered. Integrations such as `GatehouseSharing` build on it; apps usually read
/// `authSession` directly in SwiftUI, which observes it already.
///
/// ```swift
/// let observation = auth.observeAuthSession { session in
///     print(session.state, session.operationStatus)
/// }
/// // …
/// observation.cancel()
/// ```
public final class AuthSessionObservation: Sendable {
    private let state: Locked<Delivery>
    private let receiver: @MainActor @Sendable (AuthSession) -> Void

    private struct Delivery {
        var isCancelled = false
        var service: WeakService?
        var last: AuthSession?
    }

    /// A weak reference to the observed service, so that an observation never keeps it alive.
    private struct WeakService {
        weak var service: AuthService?
    }

    init(receiver: @escaping @MainActor @Sendable (AuthSession) -> Void) {
        self.state = Locked(Delivery())
        self.receiver = receiver
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Stops the deliveries; a value already on its way to the main actor is dropped. Safe to
    /// call from any context, more than once.
    public func cancel() {
        state.withLock {
            $0.isCancelled = true
            $0.service = nil
        }
    }

    /// Delivers the service's current value again, even when it equals the last one: a
    /// receiver that changed its copy (a write the service ignores) gets the real value back.
    public func redeliver() {
        Task { @MainActor in self.deliverCurrent(force: true) }
    }

    /// Starts tracking `service`; call on the main actor.
    @MainActor
    func start(observing service: AuthService) {
        let proceed = state.withLock { delivery -> Bool in
            guard !delivery.isCancelled else { return false }
            delivery.service = WeakService(service: service)
            return true
        }
        if proceed { deliverCurrent(force: false) }
    }

    /// Reads the current value under observation tracking, delivers it when it is new, and
    /// registers for the next change.
    @MainActor
    private func deliverCurrent(force: Bool) {
        guard let service = state.withLock({ $0.isCancelled ? nil : $0.service?.service }) else { return }
        let session = withObservationTracking {
            service.authSession
        } onChange: { [weak self] in
            // Called before the change is stored: read the new value once the mutation is done.
            Task { @MainActor in self?.deliverCurrent(force: false) }
        }
        let isNew = state.withLock { delivery -> Bool in
            guard !delivery.isCancelled, force || delivery.last != session else { return false }
            delivery.last = session
            return true
        }
        if isNew { receiver(session) }
    }
}
