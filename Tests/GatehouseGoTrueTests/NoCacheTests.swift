import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Auth responses carry tokens, e-mail addresses and metadata: none may land in a disk cache.
@Suite("No secrets in HTTP caches")
struct NoCacheTests {
    @Test func theDefaultURLSessionIsEphemeralWithNoCache() {
        let configuration = GoTrueBackend.urlSessionConfiguration()
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
        #expect(configuration.httpCookieStorage == nil)
        #expect(GoTrueBackend.makeURLSession().configuration.urlCache == nil)
    }

    @Test func everyRequestIgnoresCaches() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.userJSON)])
        let backend = GoTrueBackend(
            configuration: .init(url: URL(string: "https://auth.example.com/auth/v1")!),
            transport: transport.transport
        )
        let session = Session(accessToken: "a", refreshToken: "r", expiresAt: Date(), user: User(id: "u"))
        _ = try await backend.user(for: session)
        let request = try #require(transport.requests.first)
        #expect(request.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
    }

    @Test func theSessionScopeIsTheServersHost() {
        let hosted = GoTrueBackend(url: URL(string: "https://xyz.supabase.co/auth/v1")!)
        let local = GoTrueBackend(url: URL(string: "http://127.0.0.1:9999")!)
        #expect(hosted.sessionScope == "xyz.supabase.co")
        #expect(local.sessionScope == "127.0.0.1:9999")
    }
}
