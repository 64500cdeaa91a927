import Foundation
import Gatehouse
import GatehouseTesting

/// Cold restore: from reading the file store to publishing `.success(user)`, over `runs`
/// fresh `AuthService` instances, and the store's read of the same file alone (the file read and
/// its JSON decoding, the floor of a restore). Returns sorted samples in microseconds.
@MainActor
func coldRestoreSamples(runs: Int) async throws -> (restores: [Double], storeReads: [Double]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "gatehouse-bench-\(UUID().uuidString)"
    )
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(fileURL: directory.appendingPathComponent("session.json"))
    let backend = InMemoryAuthBackend()
    let seed = AuthService(backend: backend, store: store)
    let user = try await seed.signUp(email: "bench@example.com", password: "benchmark password")
    guard case .signedIn = user else { fatalError("sign-up did not sign in") }

    var samples: [Double] = []
    samples.reserveCapacity(runs)
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let service = AuthService(backend: backend, store: store)
        let start = clock.now
        await service.restoreSession()
        let elapsed = clock.now - start
        guard case .success(let restored?) = service.session else { fatalError("restore did not publish a user") }
        precondition(restored.email == "bench@example.com")
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        await service.waitForVerification()
    }
    var reads: [Double] = []
    reads.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = clock.now
        let stored = try store.load()
        let elapsed = clock.now - start
        precondition(stored?.user.email == "bench@example.com")
        reads.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return (samples.sorted(), reads.sorted())
}
