import Foundation
import Gatehouse
import GatehouseGoTrue
import GatehouseTesting
import Testing

/// Whatever a broken or hostile server sends, the SDK ends in a clear error and keeps a good
/// stored session.
@MainActor
@Suite("Broken and hostile servers")
struct HostileServerTests {
    nonisolated static let replies: [(String, RecordingTransport.Reply)] = [
        ("HTML instead of JSON", .http(200, "<html><body>Welcome to nginx!</body></html>")),
        ("a truncated body", .http(200, #"{"access_token":"a","refresh_tok"#)),
        ("a huge body", .http(200, String(repeating: "A", count: (1 << 20) + 10))),
        ("an HTML 502", .http(502, "<html>Bad Gateway</html>")),
        ("a JSON array", .http(200, "[1,2,3]")),
        ("a user with a malformed id", .http(200, #"{"id":"../../etc","created_at":"2026-01-01T00:00:00Z"}"#)),
        ("an error with an unknown code", .http(400, #"{"code":"totally_new","message":"?"}"#)),
        ("a transport failure", .failure(URLError(.cannotConnectToHost))),
    ]

    @Test(arguments: 0..<replies.count)
    func restoreAgainstAHostileServerKeepsTheSession(index: Int) async throws {
        let (name, reply) = Self.replies[index]
        let stored = Session(
            accessToken: "good-access",
            refreshToken: "good-refresh",
            expiresAt: Date().addingTimeInterval(-10),  // expired: restore must refresh
            user: User(id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", email: "ada@example.com")
        )
        let store = InMemorySessionStore(session: stored)
        let transport = RecordingTransport([reply, reply, reply])
        let backend = GoTrueBackend(
            configuration: .init(url: URL(string: "http://127.0.0.1:1")!),
            transport: transport.transport
        )
        let auth = AuthService(backend: backend, store: store, configuration: .init(verificationRetryDelays: []))

        await auth.restoreSession()
        await auth.waitForVerification()

        #expect(auth.currentUser == stored.user, "\(name): still signed in")
        #expect(store.storedSession == stored, "\(name): the stored session is untouched")
        let error = await #expect(throws: AuthError.self, "\(name)") { try await auth.accessToken() }
        #expect(error?.endsSession == false, "\(name)")
        #expect(error?.message.isEmpty == false, "\(name)")
    }
}
