import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK through `GoTrueBackend` against the real server process.
@MainActor
@Suite(
    "SDK against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct SDKEndToEndTests {
    /// Counts refresh requests going through the real URLSession transport.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    struct World {
        let server: EndToEndServer
        let store: FileSessionStore
        let refreshes = Counter()

        @MainActor
        func service(leeway: TimeInterval = 60) -> AuthService {
            let refreshes = self.refreshes
            let urlSession = HTTPTransport.urlSession()
            let transport = HTTPTransport { request in
                if request.url?.query == "grant_type=refresh_token" { refreshes.increment() }
                return try await urlSession.send(request)
            }
            let backend = GoTrueBackend(configuration: .init(url: server.url), transport: transport)
            return AuthService(
                backend: backend,
                store: store,
                configuration: .init(refreshLeeway: leeway, verificationRetryDelays: [])
            )
        }
    }

    func world(_ environment: [String: String] = [:]) async throws -> World {
        let server = try await EndToEndServer(environment: environment)
        return World(
            server: server,
            store: FileSessionStore(fileURL: server.directory.appendingPathComponent("client/session.json"))
        )
    }

    @Test func signUpConfirmSignInRestoreAndSignOut() async throws {
        let world = try await world()
        let auth = world.service()
        await auth.restoreSession()
        #expect(auth.session == .success(nil))

        let result = try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
        #expect(result == .confirmationRequired(email: "ada@example.com"))
        let code = try await world.server.code(for: "ada@example.com")
        let user = try await auth.confirmSignUp(email: "ada@example.com", code: code)
        #expect(auth.isAuthenticated)

        await auth.signOut()
        try await auth.signIn(email: "ada@example.com", password: "correct horse battery")
        #expect(auth.currentUser?.id == user.id)

        // A new instance restores from the file store, offline-first, then verifies.
        let relaunched = world.service()
        await relaunched.restoreSession()
        #expect(relaunched.currentUser?.id == user.id)
        await relaunched.waitForVerification()
        #expect(relaunched.isSessionVerified)
    }

    @Test func expiredTokensRefreshAndHundredCallersMakeOneRequest() async throws {
        let world = try await world(["GATEHOUSE_JWT_EXP": "30"])
        // A 60 s leeway on a 30 s token: every token is "near expiry", so each call must refresh.
        let auth = world.service(leeway: 60)
        try await auth.signInAnonymously()
        let before = try #require(try world.store.load())
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await auth.accessToken() } }
            var tokens = Set<String>()
            for try await token in group { tokens.insert(token) }
            return tokens
        }
        #expect(world.refreshes.count == 1)
        #expect(tokens.count == 1)
        #expect(try world.store.load()?.refreshToken != before.refreshToken)
    }

    @Test func serverSideRevocationIsSeenOnTheNextRestore() async throws {
        let world = try await world(["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        let auth = world.service()
        try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
        // Another device signs out everywhere.
        let other = AuthService(
            backend: GoTrueBackend(url: world.server.url),
            store: InMemorySessionStore(),
            configuration: .init(verificationRetryDelays: [])
        )
        try await other.signIn(email: "ada@example.com", password: "correct horse battery")
        await other.signOut(scope: .global)

        let relaunched = world.service()
        await relaunched.restoreSession()
        #expect(relaunched.currentUser != nil, "published before verification")
        await relaunched.waitForVerification()
        #expect(relaunched.session == .success(nil))
        #expect(try world.store.load() == nil)
    }

    @Test func serverDownDuringRestoreKeepsTheUserAndDuringSignOutStillSignsOut() async throws {
        let world = try await world()
        let auth = world.service()
        let guest = try await auth.signInAnonymously()
        world.server.stop()

        let relaunched = world.service()
        await relaunched.restoreSession()
        await relaunched.waitForVerification()
        #expect(relaunched.currentUser == guest)
        #expect(!relaunched.isSessionVerified)
        #expect(try world.store.load() != nil)

        await relaunched.signOut()
        #expect(relaunched.session == .success(nil))
        #expect(try world.store.load() == nil)
    }

    @Test func guestUpgradeKeepsTheIDAndDeletionEndsEverything() async throws {
        let world = try await world(["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        let auth = world.service()
        let guest = try await auth.signInAnonymously()
        let outcome = try await auth.upgradeGuest(email: "ada@example.com", password: "correct horse battery")
        guard case .upgradedInPlace(let user) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(user.id == guest.id && !user.isAnonymous)

        try await auth.deleteAccount()
        #expect(auth.session == .success(nil))
        #expect(try world.store.load() == nil)
        await #expect(throws: AuthError.self) {
            try await auth.signIn(email: "ada@example.com", password: "correct horse battery")
        }
    }
}
