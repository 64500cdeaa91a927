// Cold-restore benchmark: how long `restoreSession()` takes from reading the file store to
// publishing `.success(user)`, over 1,000 fresh `AuthService` instances.
//
//     swift run -c release gatehouse-restore-benchmark [runs]
import Foundation
import Gatehouse
import GatehouseTesting

@MainActor
func measure(runs: Int) async throws -> [Double] {
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
    return samples.sorted()
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
let samples = try await measure(runs: runs)
let median = percentile(samples, 0.5)
let p99 = percentile(samples, 0.99)
print("Cold restore (file store → .success(user)), \(runs) runs")
print(String(format: "  median  %8.1f µs", median))
print(String(format: "  p99     %8.1f µs", p99))
print(String(format: "  max     %8.1f µs", samples.last ?? 0))
print(String(format: "  target  < 1000 µs median (design budget 2 s): %@", median < 1000 ? "met" : "MISSED"))
