import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `GoTrueBackend` sends for a sign-in through a provider's page (issue 36): GoTrue's
/// `/authorize` query and the `grant_type=pkce` exchange.
@Suite("GoTrue backend: provider sign-in requests")
struct ProviderSignInRequestTests {
    func backend(_ transport: RecordingTransport) -> GoTrueBackend {
        GoTrueBackend(
            configuration: .init(url: URL(string: "https://auth.example.com/auth/v1")!),
            transport: transport.transport
        )
    }

    @Test func theAuthorizeURLCarriesTheRedirectWithItsStateInsideRedirectTo() async throws {
        let transport = RecordingTransport([])
        let flow = try ProviderSignInFlow(
            provider: "github",
            scopes: ["repo", "read:org"],
            redirectTo: URL(string: "http://127.0.0.1:53682/callback")!
        )
        let url = try await backend(transport).providerSignInURL(for: flow)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.scheme == "https" && components.host == "auth.example.com")
        #expect(components.path == "/auth/v1/authorize")
        let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items.count == 5, "nothing else: \(items)")
        #expect(items["provider"] == "github")
        #expect(items["redirect_to"] == "http://127.0.0.1:53682/callback?state=\(flow.state)")
        #expect(items["scopes"] == "repo read:org")
        #expect(items["code_challenge"] == flow.pkce.challenge)
        #expect(items["code_challenge_method"] == "s256")
        // The redirect's own `&` and `=` are encoded, so its state cannot leak into /authorize's query.
        #expect(components.percentEncodedQuery?.contains("%3Fstate%3D") == true)
        #expect(transport.requests.isEmpty, "building the URL sends nothing")
    }

    @Test func theExchangePostsTheCodeAndVerifier() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        let session = try await backend(transport).exchangeAuthCode("the-code", verifier: "the-verifier")
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://auth.example.com/auth/v1/token?grant_type=pkce")
        #expect(try transport.bodyJSON(0) as NSDictionary == ["auth_code": "the-code", "code_verifier": "the-verifier"])
        #expect(session.accessToken == "access-1")
    }

    @Test func aRefusedExchangeKeepsTheServersCode() async throws {
        let transport = RecordingTransport([
            .http(400, #"{"code":"bad_code_verifier","message":"code challenge does not match previously saved code verifier"}"#)
        ])
        let error = await #expect(throws: AuthError.self) {
            try await backend(transport).exchangeAuthCode("the-code", verifier: "wrong")
        }
        #expect(error?.code == .badCodeVerifier)
    }
}
