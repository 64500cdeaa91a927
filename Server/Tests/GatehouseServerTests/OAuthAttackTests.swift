import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The attacker's tests of the sign-in through a provider's page and of PKCE (issue 36): what
/// someone who can forge, replay, race or redirect requests tries, each refused by one check
/// (each of these tests fails with its check removed), on SQLite and PostgreSQL.
@Suite("Sign-in through a provider's page: the attacker's tests")
struct OAuthAttackTests {
    static func userCount(_ scene: OAuthScene) async throws -> Int {
        try await scene.harness.server.storage.read { try await $0.listUsers(offset: 0, limit: 1).1 }
    }

    @Test func aForgedStateSignsNobodyIn() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            // A real code for a flow the attacker started, with a state the attacker made up.
            let callback = try await scene.toCallback("keycloak", query: [("redirect_to", OAuthScene.app)])
            var fields = TestBrowser.fields(of: callback)
            fields["state"] = "forged-" + UUID().uuidString
            let forged = scene.url + "/callback?" + TestBrowser.formEncoded(fields.map { ($0.key, $0.value) })
            let landed = try await scene.follow(forged)
            #expect(landed.hasPrefix(OAuthScene.site + "?"), "an unknown state has no target but the site: \(landed)")
            #expect(TestBrowser.fields(of: landed)["error_code"] == "bad_oauth_state")
            #expect(scene.keycloak.consent.count(of: "token") == 0, "the code was never exchanged")
            #expect(try await Self.userCount(scene) == 0)
        }
    }

    @Test func aStateWorksOnce() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            let callback = try await scene.toCallback("keycloak", query: [("redirect_to", OAuthScene.app)])
            let first = try await scene.follow(callback)
            #expect(TestBrowser.fields(of: first, fragment: true)["access_token"] != nil, "\(first)")
            let replay = try await scene.follow(callback)
            #expect(TestBrowser.fields(of: replay)["error_code"] == "bad_oauth_state", "\(replay)")
            #expect(TestBrowser.fields(of: replay, fragment: true)["access_token"] == nil)
            #expect(scene.keycloak.consent.count(of: "token") == 1, "the replay never reached the provider")
        }
    }

    @Test func aCodeFromAnotherFlowIsRefused() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            // The attacker signs in with their own GitHub account and stops before the callback.
            let attackers = try await scene.toCallback("github", query: [("redirect_to", OAuthScene.app)])
            let attackerCode = try #require(TestBrowser.fields(of: attackers)["code"])
            // The victim starts a sign-in; the attacker slips their code into the victim's callback.
            let victims = try await scene.toCallback("github", query: [("redirect_to", OAuthScene.app)])
            var fields = TestBrowser.fields(of: victims)
            fields["code"] = attackerCode
            let injected = scene.url + "/callback?" + TestBrowser.formEncoded(fields.map { ($0.key, $0.value) })
            let landed = try await scene.follow(injected)
            #expect(TestBrowser.fields(of: landed)["error_code"] == "bad_oauth_callback", "\(landed)")
            #expect(TestBrowser.fields(of: landed, fragment: true)["access_token"] == nil)
            #expect(try await Self.userCount(scene) == 0, "the victim's browser holds no session of the attacker's")
        }
    }

    @Test func anExpiredFlowAndAnExpiredCodeAreRefused() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let callback = try await scene.toCallback("okta", query: [("redirect_to", OAuthScene.app)])
            scene.clock.advance(by: 601)
            let late = try await scene.follow(callback)
            #expect(late.hasPrefix(OAuthScene.app + "?"), "\(late)")
            #expect(TestBrowser.fields(of: late)["error_code"] == "flow_state_expired")
            #expect(scene.okta.consent.count(of: "token") == 0)
            // A code that waited longer than its 10 minutes.
            let pkce = PKCEPair()
            let landed = try await scene.signIn("okta", query: [("redirect_to", OAuthScene.app)] + pkce.query)
            let code = try #require(TestBrowser.fields(of: landed)["code"])
            scene.clock.advance(by: 601)
            let expired = try await scene.exchange(code, verifier: pkce.verifier, client: client)
            #expect(expired.status == .unprocessableContent && expired.errorCode == "flow_state_expired")
            // The sweep removes both.
            let swept = try await scene.harness.server.sweep([.expiredFlowStates])
            scene.clock.advance(by: 3600)
            let later = try await scene.harness.server.sweep([.expiredFlowStates])
            #expect((swept[.expiredFlowStates] ?? 0) + (later[.expiredFlowStates] ?? 0) >= 2)
        }
    }

    @Test func aRedirectOutsideTheAllowListLandsOnTheSite() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            for target in [
                "https://evil.example/steal", "http://127.0.0.1:5999.evil.example/app",
                "http://evil.example@127.0.0.1:5999/",
                "//evil.example/app", "http://127.0.0.1:6000/app",
            ] {
                let landed = try await scene.signIn("keycloak", query: [("redirect_to", target)] + PKCEPair().query)
                #expect(landed.hasPrefix(OAuthScene.site + "?code="), "\(target) → \(landed)")
            }
        }
    }

    @Test func anIDTokenForAnotherAudienceIsRefused() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            scene.keycloak.behave { $0.idTokenOverrides = ["aud": "another-client"] }
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: landed)["error_code"] == "id_token_invalid", "\(landed)")
            #expect((TestBrowser.fields(of: landed)["error_description"] ?? "").contains("aud"))
            #expect(try await Self.userCount(scene) == 0)
        }
    }

    @Test func anIDTokenWithAnotherNonceIsRefused() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            // A token the provider issued for another sign-in (another nonce), replayed into this one.
            scene.keycloak.behave { $0.idTokenOverrides = ["nonce": "nonce-of-another-sign-in"] }
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: landed)["error_code"] == "id_token_nonce_invalid", "\(landed)")
            #expect(try await Self.userCount(scene) == 0)
        }
    }

    @Test func anAddressTheProviderHasNotVerifiedNeverLinksToTheExistingAccount() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let owner = try await client.confirmedSession(email: "ada@example.com")
            scene.keycloak.behave {
                $0.profile = FakeProfile(subject: "kc-attacker", email: "ada@example.com", emailVerified: false)
            }
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: landed)["error_code"] == "email_exists", "\(landed)")
            #expect(TestBrowser.fields(of: landed, fragment: true)["access_token"] == nil)
            scene.github.change { $0.emails = [("ada@example.com", true, false)] }
            let github = try await scene.signIn("github", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: github)["error_code"] == "email_exists", "\(github)")
            let user = try await client.get("/user", bearer: owner.string("access_token"))
            let providers = (user["identities"] as? [[String: Any]] ?? []).compactMap { $0["provider"] as? String }
            #expect(!providers.contains("keycloak") && !providers.contains("github"), "\(providers)")
            #expect(try await Self.userCount(scene) == 1)
        }
    }

    @Test func aProviderThatVouchesForAPendingAddressDropsTheUnprovenPassword() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            // An attacker signs up the victim's address with a password of their own.
            _ = try await client.post("/signup", #"{"email":"vic@example.com","password":"attacker chosen pw"}"#)
            scene.keycloak.behave { $0.profile = FakeProfile(subject: "kc-vic", email: "vic@example.com") }
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: landed, fragment: true)["access_token"] != nil, "\(landed)")
            let attacker = try await client.signIn("vic@example.com", "attacker chosen pw")
            #expect(attacker.status == .badRequest, "the attacker's password is gone (OWN-1)")
        }
    }

    @Test func aMixUpBetweenTwoProvidersIsRefused() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            // The answer to a Keycloak sign-in says another issuer answered (RFC 9207).
            scene.keycloak.behave { $0.callbackIssuer = scene.okta.issuer }
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: landed)["error_code"] == "bad_oauth_callback", "\(landed)")
            #expect(scene.keycloak.consent.count(of: "token") == 0 && scene.okta.consent.count(of: "token") == 0)
            // A provider that promises to name itself (in the metadata the server reads once)
            // must: an answer without `iss` is refused.
            scene.okta.behave { $0.advertisesIssParameter = true }
            let unnamed = try await scene.signIn("okta", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: unnamed)["error_code"] == "bad_oauth_callback", "\(unnamed)")
            #expect(scene.okta.consent.count(of: "token") == 0)
            // Named correctly, it signs in.
            scene.keycloak.behave { $0.callbackIssuer = scene.keycloak.issuer }
            let named = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: named, fragment: true)["access_token"] != nil, "\(named)")
            #expect(try await Self.userCount(scene) == 1)
        }
    }

    @Test func anAuthCodeIsExchangedOnceEvenByRacingRequests() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let pkce = PKCEPair()
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)] + pkce.query)
            let code = try #require(TestBrowser.fields(of: landed)["code"])
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let answer = try await TestBrowser().post(
                            scene.url + "/token?grant_type=pkce",
                            json: #"{"auth_code":"\#(code)","code_verifier":"\#(pkce.verifier)"}"#
                        )
                        return answer.status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 != 200 }.allSatisfy { $0 == 404 }, "\(statuses)")
            let replay = try await scene.exchange(code, verifier: pkce.verifier, client: client)
            #expect(replay.status == .notFound && replay.errorCode == "flow_state_not_found")
        }
    }

    @Test func aWrongVerifierGetsNoSession() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let pkce = PKCEPair()
            let landed = try await scene.signIn("github", query: [("redirect_to", OAuthScene.app)] + pkce.query)
            let code = try #require(TestBrowser.fields(of: landed)["code"])
            let wrong = try await scene.exchange(code, verifier: PKCEPair().verifier, client: client)
            #expect(wrong.status == .badRequest && wrong.errorCode == "bad_code_verifier", "\(wrong.text)")
            #expect(wrong["access_token"] == nil)
            let missing = try await client.post("/token?grant_type=pkce", #"{"auth_code":"\#(code)"}"#)
            #expect(missing.status == .badRequest)
            // The app that holds the verifier still gets its session.
            let right = try await scene.exchange(code, verifier: pkce.verifier, client: client)
            #expect(right.status == .ok, "\(right.text)")
        }
    }

    @Test func aLinkFinishesOnlyWhileTheSessionThatAskedIsLive() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let session = try await client.confirmedSession(email: "link@example.com")
            let bearer = session.string("access_token")
            let start = try await client.get(
                "/user/identities/authorize?provider=keycloak&skip_http_redirect=true&redirect_to=" + OAuthScene.app,
                bearer: bearer
            )
            let url = try #require(start.string("url"), "\(start.text)")
            let browser = TestBrowser()
            let page = try await browser.get(url)
            let consent = try await browser.post(
                scene.keycloak.issuer + "/consent",
                form: [("request", try #require(page.hidden("request"))), ("decision", "allow")]
            )
            // Someone signs the session out meanwhile: the stolen link must not finish.
            let out = try await client.post("/logout?scope=local", bearer: bearer)
            #expect(out.status == .noContent)
            let landed = try await scene.follow(try #require(consent.location))
            #expect(TestBrowser.fields(of: landed)["error_code"] == "session_not_found", "\(landed)")
            let identity = try await scene.harness.server.storage.read {
                try await $0.identity(provider: AuthProvider(rawValue: "keycloak"), subject: "oidc-user-1")
            }
            #expect(identity == nil)
        }
    }
}
