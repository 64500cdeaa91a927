import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@MainActor
@Suite("Signing out")
struct AuthServiceSignOutTests {
    @Test func signOutWithTheBackendDownStillSignsOutAndDeletesTheFile() async throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("gatehouse/session.json"))
        let appData = directory.url.appendingPathComponent("gatehouse/notes.txt")
        let backend = InMemoryAuthBackend()
        let service = AuthService(backend: backend, store: store)
        try await service.signInAnonymously()
        try Data("the app's own data".utf8).write(to: appData)
        #expect(FileManager.default.fileExists(atPath: store.fileURL.path))
        await backend.setOffline(true)

        await service.signOut()

        #expect(service.session == .success(nil))
        #expect(service.operationStatus == .success)
        #expect(service.authSession.error == nil)
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        #expect(try String(contentsOf: appData, encoding: .utf8) == "the app's own data")
        #expect(try store.load() == nil)
    }

    @Test func signOutEndsTheServerSession() async throws {
        let fixture = Fixture()
        let user = try await fixture.service.signInAnonymously()
        #expect(await fixture.backend.liveSessionCount(ofUser: user.id) == 1)

        await fixture.service.signOut()

        #expect(await fixture.backend.liveSessionCount(ofUser: user.id) == 0)
    }

    @Test func signOutOthersKeepsThisDeviceSignedIn() async throws {
        let fixture = Fixture()
        await fixture.backend.seedUser(email: "ada@example.com", password: password)
        let other = fixture.relaunched()
        try await other.signIn(email: "ada@example.com", password: password)
        let user = try await fixture.service.signIn(email: "ada@example.com", password: password)
        #expect(await fixture.backend.liveSessionCount(ofUser: user.id) == 2)

        await fixture.service.signOut(scope: .others)

        #expect(fixture.service.currentUser == user)
        #expect(await fixture.backend.liveSessionCount(ofUser: user.id) == 1)
    }

    @Test func signOutPublishesBeforeTellingTheBackend() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        await fixture.backend.setLatency(.milliseconds(500))
        let finished = Locked(false)
        let task = Task {
            await fixture.service.signOut()
            finished.withLock { $0 = true }
        }
        for _ in 0..<400 where fixture.service.session != .success(nil) {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(fixture.service.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
        #expect(!finished.withLock { $0 }, "published while the backend is still being told")
        await task.value
    }

    @Test func aStoreThatCannotDeleteStillSignsOutAndSaysSo() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        fixture.store.failDeletes(with: .storageFailure("read-only volume"))

        await fixture.service.signOut()

        #expect(fixture.service.session == .success(nil))
        #expect(fixture.service.authSession.error?.code == .storageFailure)
    }
}
