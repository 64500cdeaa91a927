import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@Suite("Refreshing once across processes that share a store")
struct RefreshLockTests {
    @Test func aFileLockIsHeldByOneHolderAtATime() async throws {
        let directory = try TemporaryDirectory()
        let lock = RefreshLock.file(at: directory.url.appendingPathComponent("session.json.lock"))
        let release = try await lock.acquire()
        let order = Locked<[String]>([])
        let waiter = Task {
            let second = try await lock.acquire()
            order.withLock { $0.append("second acquired") }
            second()
        }
        try await Task.sleep(for: .milliseconds(100))
        order.withLock { $0.append("first released") }
        release()
        try await waiter.value
        #expect(order.withLock { $0 } == ["first released", "second acquired"])
    }

    @Test func aHolderThatNeverReleasesIsWaitedForOnlyUntilTheTimeout() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("session.json.lock")
        let release = try await RefreshLock.file(at: url).acquire()
        defer { release() }
        await #expect(throws: AuthError.self) {
            _ = try await RefreshLock.file(at: url, timeout: .milliseconds(50)).acquire()
        }
    }

    @Test func theLockFileIsPrivate() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("nested/session.json.lock")
        try await RefreshLock.file(at: url).acquire()()
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test @MainActor func twoServicesSharingAFileRefreshOnceAndBothEndWithTheNewPair() async throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        let clock = ManualClock()
        let backend = InMemoryAuthBackend(configuration: .init(now: clock.now))
        func service() -> AuthService {
            AuthService(
                backend: backend,
                store: store,
                configuration: .init(verifiesRestoredSession: false, clock: clock.authClock)
            )
        }
        let first = service()
        await first.restoreSession()
        try await first.signInAnonymously()
        let second = service()
        await second.restoreSession()
        clock.advance(by: 7200)
        let before = await backend.callCount(.refresh)

        async let a = first.accessToken()
        async let b = second.accessToken()
        let (tokenA, tokenB) = try await (a, b)

        #expect(await backend.callCount(.refresh) - before == 1, "one refresh for both")
        #expect(tokenA == tokenB)
        #expect(try store.load()?.accessToken == tokenA)
        #expect(first.isSignedIn && second.isSignedIn)
    }
}
