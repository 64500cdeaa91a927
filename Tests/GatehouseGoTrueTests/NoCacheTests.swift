import Foundation
import Gatehouse
import Testing

@testable import GatehouseGoTrue

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

    @Test func everyBackendSharesTheProcesssOneCachelessSession() {
        // Issue 31: the transport's default is this session, never `URLSession.shared` (which
        // caches), and a backend does not make a session of its own.
        let shared = HTTPTransport.cachelessSession
        #expect(shared === HTTPTransport.cachelessSession)
        #expect(shared !== URLSession.shared)
        #expect(shared.configuration.urlCache == nil)
        #expect(shared.configuration.httpCookieStorage == nil)
        #expect(shared.configuration.requestCachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
    }

    @Test func cleartextToAnotherHostIsRefusedBeforeAnythingIsSent() async throws {
        let backend = GoTrueBackend(url: URL(string: "http://auth.example.com")!)
        let session = Session(accessToken: "a", refreshToken: "r", expiresAt: Date(), user: User(id: "u"))
        do {
            _ = try await backend.user(for: session)
            Issue.record("an http:// request to another host was sent")
        } catch let error as AuthError {
            #expect(error.code == .insecureConnection)
        }
        for protected in [
            "https://auth.example.com", "http://localhost:9999", "http://127.0.0.1:9999", "http://[::1]:9999",
        ] {
            #expect(HTTPTransport.isProtected(URL(string: protected)!), "\(protected)")
        }
        for exposed in ["http://auth.example.com", "http://127.0.0.1.example.com", "http://10.0.0.5", "ftp://x"] {
            #expect(!HTTPTransport.isProtected(URL(string: exposed)!), "\(exposed)")
        }
    }

    @Test func anAppMayAllowCleartextToATrustedNetwork() async throws {
        // Opted in, the request is sent (and fails here for want of a server, as a network error).
        let backend = GoTrueBackend(
            configuration: .init(url: URL(string: "http://192.0.2.1:9")!, timeout: 1),
            transport: .urlSession(allowsCleartext: true)
        )
        let session = Session(accessToken: "a", refreshToken: "r", expiresAt: Date(), user: User(id: "u"))
        do {
            _ = try await backend.user(for: session)
        } catch let error as AuthError {
            #expect(error.code != .insecureConnection)
        }
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
