import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Issue 30: the cross-process refresh lock is held only inside a background activity, let go
/// when the activity expires (iOS kills a suspended app that holds a lock on a file in a shared
/// container: 0xdead10cc), and never waited for once the app is in the background.
@MainActor
@Suite("Refresh lock inside a background activity", .timeLimit(.minutes(1)))
struct BackgroundRefreshLockTests {
    @Test func theLockIsLetGoWhenTheActivityExpiresDuringTheRefreshsRequest() async throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        let lockURL = directory.url.appendingPathComponent("session.json.lock")
        let scene = try await Scene(store: store)
        await scene.gated.close(.refresh)

        let refresh = Task { try await scene.service.refreshSession() }
        await scene.gated.waitForWaiters(.refresh)
        #expect(scene.activity.begun == 1)
        await #expect(throws: AuthError.self, "held across the request") {
            _ = try await RefreshLock.file(at: lockURL).acquire(while: { false })
        }

        scene.activity.expire()

        let other = try await RefreshLock.file(at: lockURL).acquire(while: { false })
        other()
        await scene.gated.open(.refresh)
        let refreshed = try await value(of: refresh)
        #expect(refreshed.refreshToken != scene.signedIn.refreshToken, "the refresh still completes")
        #expect(try store.load() == refreshed)
        #expect(scene.activity.ended == 1)
    }

    @Test func theActivityEndsAndTheLockIsFreeAfterARefresh() async throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        let scene = try await Scene(store: store)

        try await scene.service.refreshSession()

        #expect(scene.activity.begun == 1 && scene.activity.ended == 1)
        let lock = try await RefreshLock.file(at: directory.url.appendingPathComponent("session.json.lock"))
            .acquire(while: { false })
        lock()
    }

    @Test func inTheBackgroundABusyLockIsNotWaitedFor() async throws {
        let lock = BusyLock()
        let scene = try await Scene(store: LockingStore(lock.lock))
        scene.service.applicationDidEnterBackground()

        try await scene.service.refreshSession()

        #expect(lock.attempts == 1, "one attempt, no waiting")
        #expect(lock.answersToKeepWaiting == [false])
        #expect(scene.activity.ended == 1)
    }

    @Test func anAppLaunchedInTheBackgroundDoesNotWaitEither() async throws {
        let lock = BusyLock()
        let scene = try await Scene(store: LockingStore(lock.lock), beganInBackground: true)

        try await scene.service.refreshSession()

        #expect(lock.attempts == 1)
    }

    @Test func aWaitStopsWhenTheAppEntersTheBackground() async throws {
        let lock = BusyLock(until: 3)
        let scene = try await Scene(store: LockingStore(lock.lock))
        let refresh = Task { try await scene.service.refreshSession() }
        await lock.waitForAttempts(3)
        #expect(lock.answersToKeepWaiting.allSatisfy { $0 })

        scene.service.applicationDidEnterBackground()
        lock.resume()
        _ = try await value(of: refresh)

        #expect(lock.answersToKeepWaiting.last == false)
        #expect(scene.activity.ended == 1)
    }

    @Test func inTheForegroundTheLockIsWaitedFor() async throws {
        let lock = BusyLock(busyFor: 3)
        let scene = try await Scene(store: LockingStore(lock.lock))
        scene.service.applicationDidEnterBackground()
        scene.service.applicationWillEnterForeground()

        try await scene.service.refreshSession()

        #expect(lock.attempts == 4, "waited until the other holder let go")
        #expect(lock.acquired == 1 && lock.released == 1)
    }

    @Test func withoutBackgroundTimeTheLockIsNotTaken() async throws {
        let lock = BusyLock(busyFor: 0)
        let scene = try await Scene(store: LockingStore(lock.lock), refuses: true)

        try await scene.service.refreshSession()

        #expect(lock.attempts == 0)
        #expect(scene.service.isSignedIn)
    }
}

/// A service signed in as a guest with an expired access token, on a backend whose refreshes
/// can be held, and a background activity the test controls.
@MainActor
private struct Scene {
    let clock = ManualClock()
    let gated: GatedBackend
    let activity: FakeBackgroundActivity
    let service: AuthService
    let signedIn: Session

    init(store: any SessionStore, beganInBackground: Bool = false, refuses: Bool = false) async throws {
        let backend = InMemoryAuthBackend(configuration: .init(now: clock.now))
        gated = GatedBackend(backend)
        activity = FakeBackgroundActivity(beganInBackground: beganInBackground, refuses: refuses)
        service = AuthService(
            backend: gated,
            store: store,
            configuration: .init(verifiesRestoredSession: false, clock: clock.authClock, backgroundActivity: activity)
        )
        await service.restoreSession()
        try await service.signInAnonymously()
        signedIn = try #require(try store.load())
        clock.advance(by: 7200)
    }
}

/// A background activity the test expires.
final class FakeBackgroundActivity: BackgroundActivity {
    private struct State {
        var expiries: [@Sendable () -> Void] = []
        var begun = 0
        var ended = 0
    }

    private let state = Locked(State())
    private let beganInBackground: Bool
    private let refuses: Bool

    init(beganInBackground: Bool = false, refuses: Bool = false) {
        self.beganInBackground = beganInBackground
        self.refuses = refuses
    }

    var begun: Int { state.withLock { $0.begun } }
    var ended: Int { state.withLock { $0.ended } }

    func begin(_ name: String, onExpiry: @escaping @Sendable () -> Void) async -> BackgroundActivityGrant? {
        if refuses { return nil }
        state.withLock {
            $0.begun += 1
            $0.expiries.append(onExpiry)
        }
        let ended = Locked(false)
        return BackgroundActivityGrant(beganInBackground: beganInBackground) { [state] in
            guard !ended.withLock({ value in defer { value = true }; return value }) else { return }
            state.withLock { $0.ended += 1 }
        }
    }

    /// The system is about to suspend the process.
    func expire() {
        let expiries = state.withLock { state in
            defer { state.expiries = [] }
            return state.expiries
        }
        for expiry in expiries { expiry() }
    }
}

/// A lock another process holds: busy for `busyFor` attempts (by default until the lock's own
/// timeout, here 200 attempts), or until the test resumes it after `until` attempts; records
/// every answer of `keepWaiting`.
final class BusyLock: Sendable {
    private struct State {
        var attempts = 0
        var answers: [Bool] = []
        var acquired = 0
        var released = 0
        var resumed = false
    }

    private let state = Locked(State())
    private let busyFor: Int
    private let pauseAfter: Int?

    /// The attempts after which the lock gives up, as a file lock does after its timeout.
    static let timeoutAttempts = 200

    init(busyFor: Int = .max, until pauseAfter: Int? = nil) {
        self.busyFor = busyFor
        self.pauseAfter = pauseAfter
    }

    var attempts: Int { state.withLock { $0.attempts } }
    var answersToKeepWaiting: [Bool] { state.withLock { $0.answers } }
    var acquired: Int { state.withLock { $0.acquired } }
    var released: Int { state.withLock { $0.released } }

    func resume() { state.withLock { $0.resumed = true } }

    func waitForAttempts(_ count: Int) async {
        for _ in 0..<10_000 where attempts < count { await Task.yield() }
    }

    var lock: RefreshLock {
        RefreshLock { [state, busyFor, pauseAfter] keepWaiting in
            while true {
                let attempt = state.withLock { state -> Int in
                    state.attempts += 1
                    return state.attempts
                }
                if attempt > busyFor {
                    state.withLock { $0.acquired += 1 }
                    return { state.withLock { $0.released += 1 } }
                }
                if let pauseAfter, attempt >= pauseAfter {
                    for _ in 0..<10_000 where !state.withLock({ $0.resumed }) { await Task.yield() }
                }
                let answer = keepWaiting()
                state.withLock { $0.answers.append(answer) }
                guard answer, attempt < Self.timeoutAttempts else { throw AuthError.storageFailure("the lock is busy") }
                await Task.yield()
            }
        }
    }
}

/// An in-memory store shared "with another process" through `lock`.
final class LockingStore: SessionStore {
    private let inner = InMemorySessionStore()
    let refreshLock: RefreshLock?

    init(_ lock: RefreshLock) {
        refreshLock = lock
    }

    func load() throws -> Session? { try inner.load() }
    func save(_ session: Session) throws { try inner.save(session) }
    func delete() throws { try inner.delete() }
}
