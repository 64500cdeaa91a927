import Foundation
import Gatehouse
import GatehouseTesting

/// Cold restore: from reading the file store to publishing `.success(user)`, over `runs`
/// fresh `AuthService` instances; the same with the background check off
/// (`verifiesRestoredSession`), whose previous run then leaves no work that moves the next
/// restore to another core; and the store's read of the same file alone (the file read and its
/// JSON decoding, the floor of a restore), warm (read after read) and cold (each after a 1 ms
/// sleep, as the first read of a launch is).
@MainActor
func coldRestoreSamples(runs: Int) async throws -> ColdRestoreSamples {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "gatehouse-bench-\(UUID().uuidString)"
    )
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(fileURL: directory.appendingPathComponent("session.json"))
    let backend = InMemoryAuthBackend()
    let seed = AuthService(backend: backend, store: store)
    let user = try await seed.signUp(email: "bench@example.com", password: "benchmark password")
    guard case .signedIn = user else { fatalError("sign-up did not sign in") }

    let clock = ContinuousClock()
    /// Restores `runs` times with a fresh service each time, waiting for its background check
    /// (if any) after each sample.
    func restores(_ configuration: AuthService.Configuration) async -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let service = AuthService(backend: backend, store: store, configuration: configuration)
            let start = clock.now
            await service.restoreSession()
            let elapsed = clock.now - start
            guard case .success(let restored?) = service.session else { fatalError("restore did not publish a user") }
            precondition(restored.email == "bench@example.com")
            samples.append(microseconds(elapsed))
            await service.waitForVerification()
        }
        return samples.sorted()
    }
    let checked = await restores(AuthService.Configuration())
    let unchecked = await restores(AuthService.Configuration(verifiesRestoredSession: false))
    func reads(count: Int, pause: Duration?) async throws -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            if let pause { try await Task.sleep(for: pause) }
            let start = clock.now
            let stored = try store.load()
            let elapsed = clock.now - start
            precondition(stored?.user.email == "bench@example.com")
            samples.append(microseconds(elapsed))
        }
        return samples.sorted()
    }
    return ColdRestoreSamples(
        restores: checked,
        unchecked: unchecked,
        storeReads: try await reads(count: runs, pause: nil),
        coldStoreReads: try await reads(count: min(runs, 1_000), pause: .milliseconds(1))
    )
}

/// Sorted samples in microseconds; see ``coldRestoreSamples(runs:)``.
struct ColdRestoreSamples {
    /// Restores as an app makes them: the background check starts after each.
    var restores: [Double]
    /// Restores with the background check off.
    var unchecked: [Double]
    /// The store's read alone, one after another.
    var storeReads: [Double]
    /// The store's read alone, each after a 1 ms sleep.
    var coldStoreReads: [Double]
}

private func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.attoseconds) / 1e12 + Double(duration.components.seconds) * 1e6
}
