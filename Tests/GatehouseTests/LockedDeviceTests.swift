import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// The service over a keychain store on a simulated device: locked before the first unlock,
/// without entitlements, or failing to save.
@MainActor
@Suite("A locked or unentitled device never signs anyone out")
struct LockedDeviceTests {
    let keychain = SimulatedKeychain()
    let backend = InMemoryAuthBackend()

    let logged = Locked<[LogSink.Event]>([])

    func service(fallback: (any SessionStore)? = nil) -> AuthService {
        let logged = self.logged
        return AuthService(
            backend: backend,
            store: KeychainSessionStore(
                service: "gatehouse.test",
                fallback: fallback,
                stopsDebugBuildsOnMissingEntitlement: false,
                client: keychain.client
            ),
            configuration: .init(
                verifiesRestoredSession: false,
                log: LogSink { event in logged.withLock { $0.append(event) } }
            )
        )
    }

    /// Signs a permanent user in on a first launch, then simulates a reboot before first unlock.
    func signedInThenRebooted() async throws -> User {
        await backend.seedUser(email: "ada@example.com", password: password)
        let first = service()
        await first.restoreSession()
        let user = try await first.signIn(email: "ada@example.com", password: password)
        keychain.lockBeforeFirstUnlock(answeringNotFound: true)
        return user
    }

    @Test func aSpuriousNotFoundWhileLockedIsNotASignOutAndUnlockRestoresTheUser() async throws {
        let user = try await signedInThenRebooted()
        let relaunched = service()
        let recorder = EventRecorder(relaunched)

        await relaunched.restoreSession()

        #expect(relaunched.session == .failure(.storageLocked()))
        #expect(relaunched.state == .loading, "not .unauthenticated")
        await #expect(throws: AuthError.storageLocked()) { try await relaunched.accessToken() }

        keychain.unlock()
        await relaunched.protectedDataDidBecomeAvailable()

        #expect(relaunched.session == .success(user))
        #expect(try await relaunched.accessToken().isEmpty == false)
        await recorder.settle()
        #expect(recorder.events == [.initialSession(user)], "never signedOut")
    }

    @Test func noGuestCanBeCreatedWhileTheStoreIsLocked() async throws {
        let user = try await signedInThenRebooted()
        let relaunched = service()
        await relaunched.restoreSession()

        // The README's first-launch pattern, run while locked.
        if relaunched.currentUser == nil {
            await #expect(throws: AuthError.storageLocked()) { try await relaunched.signInAnonymously() }
        }
        await #expect(throws: AuthError.storageLocked()) {
            try await relaunched.signIn(email: "ada@example.com", password: password)
        }
        #expect(await backend.callCount(.signInAnonymously) == 0, "the backend was never asked")

        keychain.unlock()
        await relaunched.protectedDataDidBecomeAvailable()
        #expect(relaunched.currentUser == user, "the real user's item was never overwritten")
    }

    @Test func aGuestSignInBeforeRestoreKeepsTheStoredAccount() async throws {
        let user = try await signedInThenRebooted()
        keychain.unlock()
        let relaunched = service()  // restore never called

        await #expect(throws: AuthError.storedSessionRestored()) { try await relaunched.signInAnonymously() }

        #expect(relaunched.currentUser == user)
        #expect(await backend.callCount(.signInAnonymously) == 0)
    }

    @Test func accessTokenBeforeRestoreRestoresFirst() async throws {
        let user = try await signedInThenRebooted()
        keychain.unlock()
        let relaunched = service()
        _ = try await relaunched.accessToken()
        #expect(relaunched.currentUser == user)
    }

    @Test func missingEntitlementFallsBackSaysSoOnceAndSurvivesARestart() async throws {
        keychain.setEntitled(false)
        let directory = try TemporaryDirectory()
        let file = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        let first = service(fallback: file)
        let recorder = EventRecorder(first)
        await first.restoreSession()
        let user = try await first.signInAnonymously()
        await first.signOut()
        _ = try await first.signInAnonymously()
        await recorder.settle()
        let fallbacks = recorder.events.filter {
            if case .storageFallback = $0 { return true }
            return false
        }
        #expect(fallbacks == [.storageFallback(.missingKeychainEntitlement())])
        #expect(logged.withLock { $0 }.filter { $0.message == "Session store fell back" }.count == 1)
        #expect(first.storageError == nil)

        let relaunched = service(fallback: file)
        await relaunched.restoreSession()
        #expect(relaunched.currentUser != nil)
        #expect(relaunched.currentUser != user, "the second guest, as stored")
    }

    @Test func aFailedSaveIsReportedToTheApp() async throws {
        let store = InMemorySessionStore()
        let service = AuthService(backend: backend, store: store, configuration: .init(verifiesRestoredSession: false))
        await service.restoreSession()
        let recorder = EventRecorder(service)
        store.failSaves(with: .storageFailure("disk full"))

        let user = try await service.signInAnonymously()

        #expect(service.currentUser == user, "signed in for this run")
        #expect(service.storageError?.code == .storageFailure)
        #expect(service.authSession.storageError?.code == .storageFailure)
        await recorder.settle()
        #expect(recorder.events.contains(.storageFailed(.storageFailure("disk full"))))

        store.failSaves(with: nil)
        try await service.refreshSession()
        #expect(service.storageError == nil, "a later save that succeeds clears it")
        #expect(store.storedSession?.user == user)
    }
}
