import Foundation
import Gatehouse
import GatehouseTesting
import Observation
import Testing

@MainActor
@Suite("Restoring the session at launch")
struct AuthServiceRestoreTests {
    @Test func freshInstallRestoresToSignedOut() async {
        let fixture = Fixture()
        #expect(fixture.service.session == .notInitiated)
        #expect(fixture.service.state == .loading)
        await fixture.service.restoreSession()
        #expect(fixture.service.session == .success(nil))
        #expect(fixture.service.state == .unauthenticated)
    }

    @Test func restorePublishesTheStoredUserBeforeAnyNetworkCall() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        let gated = GatedBackend(fixture.backend)
        await gated.close(.user)
        let relaunched = fixture.relaunched(backend: gated)

        await relaunched.restoreSession()

        #expect(relaunched.session == .success(user))
        #expect(relaunched.state == .guest(user))
        #expect(!relaunched.isSessionVerified)
        await gated.waitForWaiters(.user)
        await gated.open(.user)
        await relaunched.waitForVerification()
        #expect(relaunched.isSessionVerified)
        #expect(relaunched.session == .success(user))
    }

    @Test func restoreOfflineKeepsTheUserSignedIn() async throws {
        let fixture = Fixture()
        let user = try #require(try await fixture.service.signUp(email: "ada@example.com", password: password).user)
        await fixture.backend.setOffline(true)
        fixture.clock.advance(by: 7200)  // the access token has expired too

        let relaunched = fixture.relaunched()
        await relaunched.restoreSession()
        await relaunched.waitForVerification()

        #expect(relaunched.session == .success(user))
        #expect(!relaunched.isSessionVerified)
        #expect(fixture.store.storedSession != nil)
        #expect(fixture.clock.sleeps.count == 4, "retries with backoff, then stops")
    }

    @Test func restoreWithARevokedSessionSignsOut() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        await fixture.backend.revokeSessions(ofUser: user.id)

        let relaunched = fixture.relaunched()
        let recorder = EventRecorder(relaunched)
        await relaunched.restoreSession()
        #expect(relaunched.session == .success(user), "offline-first: published before verification")
        await relaunched.waitForVerification()

        #expect(relaunched.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
        await recorder.settle()
        #expect(recorder.events == [.initialSession(user), .signedOut])
    }

    @Test func restoreWithAnExpiredTokenRefreshesInTheBackground() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        let before = try #require(fixture.store.storedSession)
        fixture.clock.advance(by: 7200)

        let relaunched = fixture.relaunched()
        await relaunched.restoreSession()
        await relaunched.waitForVerification()

        #expect(relaunched.isSessionVerified)
        #expect(await fixture.backend.callCount(.refresh) == 1)
        #expect(fixture.store.storedSession?.refreshToken != before.refreshToken)
    }

    @Test func restoreOfADeletedUserSignsOutWithUserDeleted() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        await fixture.backend.deleteUser(id: user.id)

        let relaunched = fixture.relaunched()
        await relaunched.restoreSession()
        await relaunched.waitForVerification()

        #expect(relaunched.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
    }

    @Test func aServerErrorDuringVerificationKeepsTheUser() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        let serverError = AuthError(code: .unexpectedFailure, message: "boom", isRetryable: true, httpStatus: 500)
        await fixture.backend.failNext(.user, with: serverError, count: 10)

        let relaunched = fixture.relaunched()
        await relaunched.restoreSession()
        await relaunched.waitForVerification()

        #expect(relaunched.session == .success(user))
        #expect(fixture.store.storedSession != nil)
    }

    @Test func aStoreReadFailureIsAFailureWithARetryPathNotASignOut() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        fixture.store.failLoads(with: .storageLocked())

        let relaunched = fixture.relaunched()
        await relaunched.restoreSession()

        #expect(relaunched.session == .failure(.storageLocked()))
        #expect(relaunched.state == .loading)
        #expect(relaunched.authSession.error?.code == .storageLocked)
        #expect(AuthGate.gate.route(for: relaunched.session) == .sessionError(.storageLocked()))
        #expect(fixture.store.storedSession != nil, "the stored session is untouched")

        fixture.store.failLoads(with: nil)
        await relaunched.restoreSession()
        #expect(relaunched.session == .success(user))
        #expect(relaunched.authSession.error == nil)
    }

    @Test func observersAreToldWhenTheSessionChanges() async throws {
        let fixture = Fixture()
        let changed = ChangeFlag()
        withObservationTracking {
            _ = fixture.service.authSession
        } onChange: {
            changed.set()
        }
        await fixture.service.restoreSession()
        #expect(changed.isSet)
    }
}

final class ChangeFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

@MainActor
@Suite("On-demand verification")
struct OnDemandVerificationTests {
    @Test func withBackgroundVerificationOffNothingIsCalledUntilAsked() async throws {
        let fixture = Fixture(verifies: false)
        let user = try await fixture.service.signInAnonymously()
        await fixture.backend.revokeSessions(ofUser: user.id)
        let relaunched = AuthService(
            backend: fixture.backend,
            store: fixture.store,
            configuration: .init(verifiesRestoredSession: false, clock: fixture.clock.authClock)
        )
        await relaunched.restoreSession()
        await relaunched.waitForVerification()
        #expect(relaunched.currentUser == user)
        #expect(await fixture.backend.callCount(.user) == 0)

        await relaunched.verifySession()
        #expect(relaunched.session == .success(nil), "the revocation is seen when asked")
    }
}
