import Foundation
@testable import Gatehouse
import GatehouseTesting
import Testing

/// The restore path an app pays at launch: the stored session is published before any thread
/// hop the store does not need, and the server's check starts only once the caller has its
/// answer (issue 35).
@MainActor
@Suite("The restore path")
struct RestorePathTests {
    /// Forwards to an in-memory backend and counts user lookups without an actor hop, so a
    /// test can look at the count synchronously.
    final class CountingBackend: AuthBackend {
        let inner: InMemoryAuthBackend
        let userLookups = Locked(0)
        init(_ inner: InMemoryAuthBackend) { self.inner = inner }

        func signUp(email: String, password: String, upgrading guest: Session?) async throws -> SignUpOutcome {
            try await inner.signUp(email: email, password: password, upgrading: guest)
        }
        func signIn(email: String, password: String) async throws -> Session {
            try await inner.signIn(email: email, password: password)
        }
        func signInAnonymously() async throws -> Session { try await inner.signInAnonymously() }
        func signIn(with credential: IDTokenCredential, upgrading guest: Session?) async throws -> Session {
            try await inner.signIn(with: credential, upgrading: guest)
        }
        func sendMagicCode(to email: String) async throws { try await inner.sendMagicCode(to: email) }
        func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session {
            try await inner.verifyCode(email: email, code: code, type: type)
        }
        func resetPassword(email: String) async throws { try await inner.resetPassword(email: email) }
        func refresh(_ session: Session) async throws -> Session { try await inner.refresh(session) }
        func user(for session: Session) async throws -> User {
            userLookups.withLock { $0 += 1 }
            return try await inner.user(for: session)
        }
        func updateUser(_ changes: UserChanges, for session: Session) async throws -> User {
            try await inner.updateUser(changes, for: session)
        }
        func deleteAccount(_ session: Session) async throws { try await inner.deleteAccount(session) }
        func signOut(_ session: Session, scope: LogoutScope) async throws { try await inner.signOut(session, scope: scope) }
    }

    @Test func theServersCheckStartsAfterRestoreHasReturned() async throws {
        let inner = InMemoryAuthBackend()
        let store = InMemorySessionStore()
        let seed = AuthService(backend: inner, store: store)
        await seed.restoreSession()
        _ = try await seed.signInAnonymously()
        let backend = CountingBackend(inner)
        let service = AuthService(backend: backend, store: store)

        await service.restoreSession()

        guard case .success(let user?) = service.session else {
            Issue.record("the stored user was not published: \(service.session)")
            return
        }
        #expect(backend.userLookups.withLock { $0 } == 0, "the server was asked before restoreSession() returned")
        await service.waitForVerification()
        #expect(backend.userLookups.withLock { $0 } == 1)
        #expect(service.isSessionVerified && service.currentUser == user)
    }

    @Test func aStoreThatCannotBlockIsReadWithoutAHop() async throws {
        let store = InMemorySessionStore()
        let queue = SessionStoreQueue(store)

        let outcome = try #require(queue.loadInline())

        #expect(try outcome.result.get() == nil)
        #expect(store.callCounts.loads == 1)
    }

    @Test func aReadNeverOvertakesAQueuedWrite() async throws {
        let gate = DispatchSemaphore(value: 0)
        let store = BlockingSaveStore(gate: gate)
        let queue = SessionStoreQueue(store)
        let session = try await Self.session()

        let save = Task.detached { await queue.run { try $0.save(session) } }
        try await Self.waitUntil { store.saveStarted.withLock { $0 } }

        #expect(queue.loadInline() == nil, "a read inline would overtake the save")
        gate.signal()
        _ = await save.value
        let outcome = try #require(queue.loadInline())
        #expect(try outcome.result.get() == session)
    }

    @Test func aStoreThatMayBlockIsAlwaysReadOnTheQueue() {
        let queue = SessionStoreQueue(BlockingSaveStore(gate: DispatchSemaphore(value: 1), loadsWithoutBlocking: false))
        #expect(queue.loadInline() == nil)
    }

    /// A store whose saves wait for a semaphore.
    final class BlockingSaveStore: SessionStore, @unchecked Sendable {
        let gate: DispatchSemaphore
        let saveStarted = Locked(false)
        let stored = Locked<Session?>(nil)
        let loadsWithoutBlocking: Bool

        init(gate: DispatchSemaphore, loadsWithoutBlocking: Bool = true) {
            self.gate = gate
            self.loadsWithoutBlocking = loadsWithoutBlocking
        }

        func load() throws -> Session? { stored.withLock { $0 } }
        func save(_ session: Session) throws {
            saveStarted.withLock { $0 = true }
            gate.wait()
            stored.withLock { $0 = session }
        }
        func delete() throws { stored.withLock { $0 = nil } }
    }

    static func session() async throws -> Session {
        let store = InMemorySessionStore()
        let service = AuthService(backend: InMemoryAuthBackend(), store: store)
        await service.restoreSession()
        _ = try await service.signInAnonymously()
        return try #require(store.storedSession)
    }

    static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not hold within ten seconds")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
