import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@Suite("Gate and optional routing")
struct AuthGateTests {
    let member = User(id: "u1", email: "ada@example.com")
    let guest = User(id: "g1", isAnonymous: true)

    @Test func gateModeRoutesEveryState() {
        let gate = AuthGate.gate
        #expect(gate.route(for: .notInitiated) == .progress)
        #expect(gate.route(for: .loading) == .progress)
        #expect(gate.route(for: .success(nil)) == .signIn)
        #expect(gate.route(for: .success(member)) == .content(member))
        #expect(gate.route(for: .success(guest)) == .content(guest))
        #expect(gate.route(for: .failure(.storageLocked())) == .sessionError(.storageLocked()))
    }

    @Test func optionalModeAlwaysShowsContent() {
        let gate = AuthGate.optional
        #expect(gate.route(for: .notInitiated) == .content(nil))
        #expect(gate.route(for: .loading) == .content(nil))
        #expect(gate.route(for: .success(nil)) == .content(nil))
        #expect(gate.route(for: .success(member)) == .content(member))
        #expect(gate.route(for: .success(guest)) == .content(guest))
        #expect(gate.route(for: .failure(.storageLocked())) == .content(nil))
    }

    @Test func featuresAskForSignInByRequirement() {
        let gate = AuthGate.optional
        #expect(gate.requiresSignIn(for: .anyUser, in: .unauthenticated))
        #expect(gate.requiresSignIn(for: .anyUser, in: .loading))
        #expect(!gate.requiresSignIn(for: .anyUser, in: .guest(guest)))
        #expect(gate.requiresSignIn(for: .account, in: .guest(guest)))
        #expect(!gate.requiresSignIn(for: .account, in: .authenticated(member)))
    }
}

@MainActor
@Suite("Session-error screen and restoring once")
struct SessionErrorGateTests {
    @Test func retryWhenTheErrorMayPassSignInAgainWhenItCannot() {
        #expect(AuthGate.actions(for: .storageLocked()) == [.retry])
        #expect(AuthGate.actions(for: .storageCorrupt(location: "x")) == [.signInAgain])
        #expect(AuthGate.actions(for: .missingKeychainEntitlement()) == [.signInAgain])
        #expect(AuthGate.SessionErrorAction.signInAgain.needsConfirmation)
        #expect(!AuthGate.SessionErrorAction.retry.needsConfirmation)
    }

    @Test func signInAgainClearsTheUnreadableSessionAndShowsSignIn() async throws {
        let store = InMemorySessionStore(
            session: Session(accessToken: "a", refreshToken: "r", expiresAt: Date(), user: User(id: "u"))
        )
        store.failLoads(with: .storageCorrupt(location: "keychain"))
        let fixture = Fixture(store: store)
        await fixture.service.restoreSession()
        guard case .sessionError(let error) = AuthGate.gate.route(for: fixture.service.session) else {
            Issue.record("expected the session-error route")
            return
        }
        #expect(AuthGate.actions(for: error) == [.signInAgain])

        store.failLoads(with: nil)
        await fixture.service.discardStoredSession()

        #expect(AuthGate.gate.route(for: fixture.service.session) == .signIn)
        #expect(store.storedSession == nil)
        let user = try await fixture.service.signInAnonymously()
        #expect(store.storedSession?.user == user)
    }

    @Test func signInAgainWorksEvenWhenTheStoreStillCannotBeRead() async throws {
        let store = InMemorySessionStore()
        store.failLoads(with: .storageCorrupt(location: "keychain"))
        let fixture = Fixture(store: store)
        await fixture.service.restoreSession()
        await fixture.service.discardStoredSession()
        #expect(fixture.service.session == .success(nil))
        _ = try await fixture.service.signInAnonymously()
        #expect(store.storedSession != nil)
    }

    @Test func restoreIfNeededRunsOnceAndJoinsARunningRestore() async {
        let fixture = Fixture()
        async let first: Void = fixture.service.restoreSessionIfNeeded()
        async let second: Void = fixture.service.restoreSessionIfNeeded()
        _ = await (first, second)
        await fixture.service.restoreSessionIfNeeded()
        #expect(fixture.store.callCounts.loads == 1)
        #expect(fixture.service.session == .success(nil))
    }

    @Test func aViewShownAgainDoesNotCancelASignInInFlight() async throws {
        let fixture = Fixture()
        let gated = GatedBackend(fixture.backend)
        let service = fixture.relaunched(backend: gated)
        await service.restoreSessionIfNeeded()
        await gated.close(.signInAnonymously)
        let signIn = Task { try await service.signInAnonymously() }
        await gated.waitForWaiters(.signInAnonymously)

        await service.restoreSessionIfNeeded()  // a second window appears
        await gated.open(.signInAnonymously)

        let user = try await signIn.value
        #expect(service.currentUser == user)
    }

    @Test func aFullRestoreDuringASignInCancelsIt() async throws {
        // Why the gate calls restoreSessionIfNeeded(): restoreSession() starts over.
        let fixture = Fixture()
        let gated = GatedBackend(fixture.backend)
        let service = fixture.relaunched(backend: gated)
        await service.restoreSession()
        await gated.close(.signInAnonymously)
        let signIn = Task { try await service.signInAnonymously() }
        await gated.waitForWaiters(.signInAnonymously)

        await service.restoreSession()
        await gated.open(.signInAnonymously)

        await #expect(throws: AuthError.sessionSuperseded()) { try await signIn.value }
    }
}
