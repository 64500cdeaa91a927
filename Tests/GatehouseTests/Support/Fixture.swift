import Foundation
@testable import Gatehouse
import GatehouseTesting
import Testing

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

/// Collects a service's events in the background.
@MainActor
final class EventRecorder {
    private(set) var events: [AuthEvent] = []
    private let service: AuthService
    private var task: Task<Void, Never>?
    private var barriersSeen = 0

    /// The event ``settle()`` sends through the service's own broadcaster and removes again.
    private static let barrier = AuthEvent.storageFallback(
        AuthError(code: .unknown, message: "EventRecorder barrier")
    )

    init(_ service: AuthService) {
        self.service = service
        let stream = service.authStateChanges
        task = Task { @MainActor [weak self] in
            for await event in stream {
                guard let self else { return }
                if event == Self.barrier {
                    self.barriersSeen += 1
                } else {
                    self.events.append(event)
                }
            }
        }
    }

    /// Returns once every event the service has sent so far has been recorded: a barrier goes
    /// through the same stream after them (each stream delivers in order), and arrives within
    /// ten seconds or the test fails.
    func settle() async {
        let expected = barriersSeen + 1
        service.events.send(Self.barrier)
        let deadline = ContinuousClock.now + .seconds(10)
        while barriersSeen < expected {
            guard ContinuousClock.now < deadline else {
                Issue.record("the service's events did not arrive within ten seconds")
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    func stop() { task?.cancel() }
}

let password = "correct horse battery"
