import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@MainActor
@Suite("Access tokens and refresh")
struct AuthServiceRefreshTests {
    @Test func aFreshTokenIsReturnedWithoutRefreshing() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        let token = try await fixture.service.accessToken()
        #expect(token == fixture.store.storedSession?.accessToken)
        #expect(await fixture.backend.callCount(.refresh) == 0)
    }

    @Test func noTokenWhenSignedOut() async throws {
        let fixture = Fixture()
        await #expect(throws: AuthError.notSignedIn()) { try await fixture.service.accessToken() }
    }

    @Test func thousandConcurrentCallersNearExpiryMakeExactlyOneRefresh() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        await fixture.backend.setLatency(.milliseconds(20))
        fixture.clock.advance(by: 3600 - 30)  // inside the refresh leeway
        let service = fixture.service

        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1_000 {
                group.addTask { try await service.accessToken() }
            }
            var tokens = Set<String>()
            for try await token in group { tokens.insert(token) }
            return tokens
        }

        #expect(await fixture.backend.callCount(.refresh) == 1)
        #expect(tokens.count == 1)
        #expect(tokens.first == fixture.store.storedSession?.accessToken)
        // The refreshed token works against the backend.
        #expect(
            try await fixture.backend.user(for: #require(fixture.store.storedSession)).id == service.currentUser?.id
        )
    }

    @Test func aRefreshFinishingAfterSignOutDoesNotResurrectTheSession() async throws {
        let fixture = Fixture()
        let (service, gated) = try await Self.expiredGuestWithTheRefreshHeld(fixture)
        let recorder = EventRecorder(service)

        let pending = Task { try await service.accessToken() }
        await gated.waitForWaiters(.refresh)
        await service.signOut()
        await gated.open(.refresh)

        await #expect(throws: AuthError.sessionSuperseded()) { try await pending.value }
        #expect(service.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
        await recorder.settle()
        #expect(!recorder.events.contains { if case .tokenRefreshed = $0 { return true } else { return false } })
    }

    @Test func aRefreshFinishingAfterAnotherUserSignedInIsDropped() async throws {
        let fixture = Fixture()
        await fixture.backend.seedUser(email: "bob@example.com", password: password)
        let (service, gated) = try await Self.expiredGuestWithTheRefreshHeld(fixture)

        let pending = Task { try await service.accessToken() }
        await gated.waitForWaiters(.refresh)
        let bob = try await service.signIn(email: "bob@example.com", password: password)
        await gated.open(.refresh)

        await #expect(throws: AuthError.sessionSuperseded()) { try await pending.value }
        #expect(service.currentUser == bob)
        #expect(fixture.store.storedSession?.user == bob)
    }

    @Test func aDefinitiveRefreshFailureSignsOut() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        await fixture.backend.revokeSessions(ofUser: user.id)
        fixture.clock.advance(by: 3600)

        await #expect(throws: AuthError.self) { try await fixture.service.accessToken() }

        #expect(fixture.service.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
    }

    @Test func aNetworkFailureDuringRefreshKeepsTheSession() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        fixture.clock.advance(by: 3600)
        await fixture.backend.setOffline(true)

        await #expect(throws: AuthError.networkUnavailable(underlying: "")) { try await fixture.service.accessToken() }

        #expect(fixture.service.currentUser == user)
        #expect(fixture.store.storedSession != nil)
        await fixture.backend.setOffline(false)
        _ = try await fixture.service.accessToken()
        #expect(await fixture.backend.callCount(.refresh) == 2)
    }

    @Test func aTokenRotatedByAnotherProcessIsAdoptedInsteadOfReused() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        let other = fixture.relaunched()
        await other.restoreSession()
        for _ in 0..<2 {
            fixture.clock.advance(by: 3600)
            try await other.refreshSession()
        }
        let newest = try #require(fixture.store.storedSession)

        let token = try await fixture.service.accessToken()

        #expect(token == newest.accessToken)
        #expect(await fixture.backend.callCount(.refresh) == 2, "no refresh with the stale, reused token")
        #expect(fixture.service.currentUser != nil)
    }

    @Test func alreadyUsedAfterAnotherProcessRefreshedDoesNotSignOut() async throws {
        let fixture = Fixture()
        let (service, gated) = try await Self.expiredGuestWithTheRefreshHeld(fixture)
        let pending = Task { try await service.accessToken() }
        await gated.waitForWaiters(.refresh)
        let other = fixture.relaunched()
        await other.restoreSession()
        try await other.refreshSession()
        let alreadyUsed = AuthError(code: .refreshTokenAlreadyUsed, message: "Invalid Refresh Token: Already Used")
        await fixture.backend.failNext(.refresh, with: alreadyUsed)

        await gated.open(.refresh)

        await #expect(throws: alreadyUsed) { try await pending.value }
        #expect(service.currentUser != nil, "storage holds a newer session: do not sign out")
        #expect(fixture.store.storedSession != nil)
        #expect(try await service.accessToken() == fixture.store.storedSession?.accessToken)
    }

    @Test func alreadyUsedWithNothingNewerStoredSignsOut() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        fixture.clock.advance(by: 3600)
        let alreadyUsed = AuthError(code: .refreshTokenAlreadyUsed, message: "Invalid Refresh Token: Already Used")
        await fixture.backend.failNext(.refresh, with: alreadyUsed)

        await #expect(throws: alreadyUsed) { try await fixture.service.accessToken() }

        #expect(fixture.service.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
    }

    @Test func refreshRotatesAndEmitsTokenRefreshed() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        let before = try #require(fixture.store.storedSession)
        let recorder = EventRecorder(fixture.service)

        let after = try await fixture.service.refreshSession()

        #expect(after.refreshToken != before.refreshToken)
        #expect(fixture.store.storedSession == after)
        await recorder.settle()
        #expect(recorder.events.contains(.tokenRefreshed(user)))
    }

    /// A guest signed in through a gated backend, its access token expired and the gate closed
    /// before any refresh.
    static func expiredGuestWithTheRefreshHeld(_ fixture: Fixture) async throws -> (AuthService, GatedBackend) {
        let gated = GatedBackend(fixture.backend)
        let service = AuthService(
            backend: gated,
            store: fixture.store,
            configuration: .init(clock: fixture.clock.authClock)
        )
        try await service.signInAnonymously()
        fixture.clock.advance(by: 3600)
        await gated.close(.refresh)
        return (service, gated)
    }
}
