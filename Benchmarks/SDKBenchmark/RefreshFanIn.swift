import Foundation
import Gatehouse
import GatehouseTesting

/// `callers` concurrent `accessToken()` calls after the access token expired: how many
/// refresh requests reach the backend (single flight: one).
@MainActor
func refreshRequests(callers: Int) async throws -> Int {
    let clock = ManualClock()
    let backend = InMemoryAuthBackend(configuration: .init(now: clock.now))
    await backend.setLatency(.milliseconds(20))
    let service = AuthService(
        backend: backend,
        store: InMemorySessionStore(),
        configuration: .init(clock: clock.authClock)
    )
    try await service.signInAnonymously()
    clock.advance(by: 3_601)
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<callers {
            group.addTask { try await service.accessToken() }
        }
        var tokens = Set<String>()
        for try await token in group { tokens.insert(token) }
        return tokens
    }
    precondition(tokens.count == 1, "every caller got the one new token")
    return await backend.callCount(.refresh)
}
