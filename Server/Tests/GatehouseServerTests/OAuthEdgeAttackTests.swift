import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The attacker's tests of the provider sign-in at the request edge: a hostile proxy header
/// cannot move where the server sends the browser, and a huge body is refused before any
/// flow is spent.
@Suite("Sign-in through a provider's page: hostile headers and huge bodies")
struct OAuthEdgeAttackTests {
    static let hostile = [
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Port": "8443",
        "Forwarded": "for=203.0.113.9;host=evil.example;proto=https",
        "X-Original-URL": "https://evil.example/callback",
    ]

    /// The redirect to the provider names the server's own callback, and the callback sends the
    /// browser to the allowed app, whatever forwarding headers the request carries.
    @Test func forwardingHeadersMoveNoRedirect() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            let browser = TestBrowser()
            let authorize = try await browser.get(
                scene.url + "/authorize?"
                    + TestBrowser.formEncoded([("provider", "keycloak"), ("redirect_to", OAuthScene.app)]),
                headers: Self.hostile
            )
            #expect(authorize.status == 302)
            let location = try #require(authorize.location)
            let redirectURI = try #require(TestBrowser.fields(of: location)["redirect_uri"])
            #expect(redirectURI == scene.url + "/callback", "\(redirectURI)")
            #expect(!location.contains("evil.example"), "\(location)")

            let callback = try await scene.toCallback("keycloak", query: [("redirect_to", OAuthScene.app)])
            let landed = try await browser.get(callback, headers: Self.hostile)
            #expect(landed.status == 302)
            let target = try #require(landed.location)
            #expect(target.hasPrefix(OAuthScene.app + "#"), "\(target)")
            #expect(!target.contains("evil.example"))
        }
    }

    /// A callback form of two megabytes is refused with 413 without exchanging the code, and
    /// the flow it was aimed at still finishes; the code exchange refuses a huge body too.
    @Test func aHugeBodyIsRefusedBeforeAnyFlowIsSpent() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let callback = try await scene.toCallback("keycloak", query: [("redirect_to", OAuthScene.app)])
            var fields = TestBrowser.fields(of: callback).map { ($0.key, $0.value) }
            fields.append(("padding", String(repeating: "a", count: 2 << 20)))
            let huge = try await TestBrowser().post(scene.url + "/callback", form: fields)
            #expect(huge.status == 413, "\(huge.status)")
            #expect(scene.keycloak.consent.count(of: "token") == 0, "the code was not exchanged")

            let landed = try await scene.follow(callback)
            #expect(TestBrowser.fields(of: landed, fragment: true)["access_token"] != nil, "\(landed)")

            let verifier = String(repeating: "a", count: 2 << 20)
            let exchange = try await client.post(
                "/token?grant_type=pkce",
                #"{"auth_code":"\#(UUID().uuidString)","code_verifier":"\#(verifier)"}"#
            )
            #expect(exchange.status == .contentTooLarge)
            #expect(exchange.errorCode == "request_entity_too_large")
        }
    }
}
