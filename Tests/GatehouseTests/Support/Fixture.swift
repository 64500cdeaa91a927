import Foundation
import Gatehouse
import GatehouseTesting

/// A service wired to an in-memory backend, store and manual clock.
@MainActor
struct Fixture {
    let clock = ManualClock()
    let backend: InMemoryAuthBackend
    let store: InMemorySessionStore
    let service: AuthService

    init(
        requiresEmailConfirmation: Bool = false,
        store: InMemorySessionStore = InMemorySessionStore(),
        verifies: Bool = true
    ) {
        let clock = self.clock
        backend = InMemoryAuthBackend(
            configuration: .init(requiresEmailConfirmation: requiresEmailConfirmation, now: clock.now)
        )
        self.store = store
        service = AuthService(
            backend: backend,
            store: store,
            configuration: .init(verifiesRestoredSession: verifies, clock: clock.authClock)
        )
    }

    /// A second service on the same backend and store, as after an app relaunch.
    func relaunched(backend: (any AuthBackend)? = nil) -> AuthService {
        AuthService(
            backend: backend ?? self.backend,
            store: store,
            configuration: .init(clock: clock.authClock)
        )
    }
}

/// Collects events from a stream in the background.
@MainActor
final class EventRecorder {
    private(set) var events: [AuthEvent] = []
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<AuthEvent>) {
        task = Task { @MainActor [weak self] in
            for await event in stream { self?.events.append(event) }
        }
    }

    /// Lets pending events arrive.
    func settle() async {
        for _ in 0..<50 { await Task.yield() }
    }

    func stop() { task?.cancel() }
}

let password = "correct horse battery"
