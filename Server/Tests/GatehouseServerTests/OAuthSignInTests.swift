import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Sign-in through a provider's page (issue 36): `GET /authorize` → the provider's consent page →
/// `/callback` → the app, with a fake OpenID Connect provider, a fake GitHub, a fake Google and a
/// fake Apple on loopback, on SQLite and PostgreSQL.
@Suite("Sign-in through a provider's page")
struct OAuthSignInTests {
    @Test func anOpenIDConnectSignInWithPKCECreatesTheUserAndTheCodeBecomesASession() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let pkce = PKCEPair()
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)] + pkce.query)
            #expect(landed.hasPrefix(OAuthScene.app + "?code="), "\(landed)")
            let code = try #require(TestBrowser.fields(of: landed)["code"])
            #expect(!landed.contains("access_token"), "no token travels in the redirect of a PKCE flow")
            let session = try await scene.exchange(code, verifier: pkce.verifier, client: client)
            #expect(session.status == .ok, "\(session.text)")
            #expect(session.user["email"] as? String == "ada@example.com")
            #expect((session.user["email_confirmed_at"] as? String) != nil, "the provider verified the address")
            #expect((session.string("provider_token") ?? "").hasPrefix("oidc-access-"))
            #expect((session.string("provider_refresh_token") ?? "").hasPrefix("oidc-refresh-"))
            let identities = session.user["identities"] as? [[String: Any]] ?? []
            #expect(identities.map { $0["provider"] as? String } == ["keycloak"])
            #expect(identities.first?["id"] as? String == "oidc-user-1")
            #expect((session.user["app_metadata"] as? [String: Any])?["provider"] as? String == "keycloak")
            #expect(amrMethods(session.string("access_token")) == ["oauth"])
            #expect((session.user["user_metadata"] as? [String: Any])?["full_name"] as? String == "Ada Lovelace")
            // The same person again: the same user, by (provider, subject).
            let again = PKCEPair()
            let second = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)] + again.query)
            let secondSession = try await scene.exchange(
                try #require(TestBrowser.fields(of: second)["code"]),
                verifier: again.verifier,
                client: client
            )
            #expect(secondSession.user["id"] as? String == session.user["id"] as? String)
        }
    }

    @Test func theImplicitFlowPutsTheSessionInTheFragment() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let landed = try await scene.signIn("okta", query: [("redirect_to", OAuthScene.app + "?tab=1")])
            #expect(landed.hasPrefix(OAuthScene.app + "?tab=1#"), "\(landed)")
            let fragment = TestBrowser.fields(of: landed, fragment: true)
            let token = try #require(fragment["access_token"])
            #expect(fragment["token_type"] == "bearer" && fragment["refresh_token"] != nil)
            #expect(fragment["expires_in"] == "3600" && fragment["sb"] == "")
            #expect((fragment["provider_token"] ?? "").hasPrefix("oidc-access-"))
            let user = try await client.get("/user", bearer: token)
            #expect(user["email"] as? String == "ada@example.com")
        }
    }

    @Test func gitHubSignsInWithItsVerifiedPrimaryAddress() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            scene.github.change {
                $0.emails = [("old@example.com", false, true), ("ada@example.com", true, true)]
            }
            let pkce = PKCEPair()
            let landed = try await scene.signIn("github", query: [("redirect_to", OAuthScene.app)] + pkce.query)
            let session = try await scene.exchange(
                try #require(TestBrowser.fields(of: landed)["code"]),
                verifier: pkce.verifier,
                client: client
            )
            #expect(session.status == .ok, "\(session.text)")
            #expect(session.user["email"] as? String == "ada@example.com", "the primary address, not the first")
            let identity = (session.user["identities"] as? [[String: Any]])?.first ?? [:]
            #expect(identity["provider"] as? String == "github" && identity["id"] as? String == "4242")
            let data = identity["identity_data"] as? [String: Any] ?? [:]
            #expect(data["user_name"] as? String == "ada" && data["email_verified"] as? Bool == true)
            #expect((session.string("provider_token") ?? "").hasPrefix("gho_"))
            #expect(scene.github.consent.count(of: "user") == 1)
        }
    }

    @Test func gitHubWithoutAVerifiedPrimaryAddressMakesAnAccountWithoutOne() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            scene.github.change { $0.emails = [("ada@example.com", true, false)] }
            let landed = try await scene.signIn("github", query: [("redirect_to", OAuthScene.app)])
            let token = try #require(TestBrowser.fields(of: landed, fragment: true)["access_token"], "\(landed)")
            let user = try await client.get("/user", bearer: token)
            #expect((user["email"] as? String ?? "") == "", "an address GitHub has not verified is no one's proof")
        }
    }

    @Test func appleOnTheWebPostsTheCodeAndTheNameOfTheFirstAuthorization() async throws {
        let scene = try await OAuthScene.make(apple: true)
        let apple = try #require(scene.apple)
        try await scene.run { client in
            let browser = TestBrowser()
            let pkce = PKCEPair()
            let authorize = try await browser.get(
                scene.url + "/authorize?"
                    + TestBrowser.formEncoded([("provider", "apple"), ("redirect_to", OAuthScene.app)] + pkce.query)
            )
            let location = try #require(authorize.location)
            let query = TestBrowser.fields(of: location)
            #expect(query["response_mode"] == "form_post" && query["client_id"] == OAuthScene.appleServicesID)
            #expect(query["nonce"] != nil && query["code_challenge"] == nil, "a nonce binds Apple's ID token")
            let page = try await browser.get(location)
            let consent = try await browser.post(
                apple.provider.baseURL.absoluteString + "/auth/consent",
                form: [("request", try #require(page.hidden("request"))), ("decision", "allow")]
            )
            // Apple's page posts the form to the callback, as the browser would.
            let posted = try await browser.post(
                scene.url + "/callback",
                form: [
                    ("code", try #require(consent.hidden("code"))), ("state", try #require(consent.hidden("state"))),
                    ("user", try #require(consent.hidden("user"))),
                ]
            )
            #expect(posted.status == 303, "a form post is answered with 303 (\(posted.status))")
            let landed = try #require(posted.location)
            let session = try await scene.exchange(
                try #require(TestBrowser.fields(of: landed)["code"], "\(landed)"),
                verifier: pkce.verifier,
                client: client
            )
            #expect(session.status == .ok, "\(session.text)")
            let metadata = session.user["user_metadata"] as? [String: Any] ?? [:]
            #expect(metadata["full_name"] as? String == "Ada Lovelace" && metadata["given_name"] as? String == "Ada")
            #expect(session.user["email"] as? String == "ada@example.com")
            #expect(apple.exchanges == 1, "the code was exchanged with a client secret Apple accepted")
            #expect(apple.refusedSecrets == 0)
            // Apple's refresh token is kept (sealed) for its revocation when the account is deleted.
            let stored = try await scene.harness.server.storage.read { reader in
                try await reader.identity(provider: .apple, subject: "apple-web-user-1")
            }
            let identity = try #require(stored)
            let token = try await scene.harness.server.storage.transaction { tx in
                try await tx.appleToken(identityID: identity.id)
            }
            #expect(token?.clientID == OAuthScene.appleServicesID)
        }
    }

    @Test func googleVouchesOnlyForGmailOrAWorkspaceDomain() async throws {
        let scene = try await OAuthScene.make(google: true)
        let google = try #require(scene.google)
        try await scene.run { client in
            _ = try await client.confirmedSession(email: "ada@example.com")
            // A verified address outside Gmail without `hd`: Google is not authoritative for it.
            google.behave { $0.profile = FakeProfile(subject: "g-1", email: "ada@example.com") }
            let refused = try await scene.signIn("google", query: [("redirect_to", OAuthScene.app)])
            #expect(TestBrowser.fields(of: refused)["error_code"] == "email_exists", "\(refused)")
            google.behave { $0.profile = FakeProfile(subject: "g-2", email: "grace@gmail.com") }
            let landed = try await scene.signIn("google", query: [("redirect_to", OAuthScene.app)])
            let token = try #require(TestBrowser.fields(of: landed, fragment: true)["access_token"], "\(landed)")
            let user = try await client.get("/user", bearer: token)
            #expect(user["email"] as? String == "grace@gmail.com")
        }
    }

    @Test func aCancelledConsentComesBackAsAccessDenied() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            let landed = try await scene.signIn("keycloak", query: [("redirect_to", OAuthScene.app)], decision: "deny")
            let query = TestBrowser.fields(of: landed)
            #expect(landed.hasPrefix(OAuthScene.app + "?"), "\(landed)")
            #expect(query["error"] == "access_denied" && query["error_code"] == "access_denied")
            #expect(query["error_description"] == "The user cancelled the sign-in")
            let fragment = TestBrowser.fields(of: landed, fragment: true)
            #expect(fragment["error"] == "access_denied" && fragment["sb"] == "")
        }
    }

    @Test func anUnknownProviderOrAMalformedChallengeIsRefusedBeforeAnyRedirect() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let unknown = try await client.get("/authorize?provider=myspace")
            #expect(unknown.status == .badRequest && unknown.errorCode == "validation_failed")
            let short = try await client.get(
                "/authorize?provider=keycloak&code_challenge=abc&code_challenge_method=s256"
            )
            #expect(short.status == .badRequest && short.errorCode == "validation_failed")
            let lonely = try await client.get("/authorize?provider=keycloak&code_challenge_method=s256")
            #expect(lonely.status == .badRequest)
            let method = try await client.get(
                "/authorize?provider=keycloak&code_challenge=\(PKCEPair().challenge)&code_challenge_method=md5"
            )
            #expect(method.status == .badRequest)
            let scopes = try await client.get("/authorize?provider=keycloak&scopes=%22quoted%22")
            #expect(scopes.status == .badRequest)
        }
    }

    @Test func theAuthorizationRequestCarriesStateNoncePKCEAndScopesButNoOverrides() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { _ in
            let browser = TestBrowser()
            let answer = try await browser.get(
                scene.url + "/authorize?provider=keycloak&scopes=groups%20offline_access&prompt=consent"
                    + "&state=evil&redirect_uri=https%3A%2F%2Fevil.example&nonce=evil"
            )
            #expect(answer.status == 302)
            let query = TestBrowser.fields(of: try #require(answer.location))
            #expect(query["scope"] == "openid email profile groups offline_access")
            #expect(query["prompt"] == "consent", "a harmless parameter passes through")
            #expect(query["redirect_uri"] == scene.url + "/callback")
            #expect(query["state"] != "evil" && (query["state"] ?? "").count >= 43)
            #expect(query["nonce"] != "evil" && (query["nonce"] ?? "").count >= 43)
            #expect(query["code_challenge_method"] == "S256" && (query["code_challenge"] ?? "").count == 43)
            #expect(answer.headers[.cacheControl] == "no-store")
        }
    }

    @Test func settingsListTheEnabledProviders() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let settings = try await client.get("/settings")
            let external = settings["external"] as? [String: Any] ?? [:]
            #expect(external["github"] as? Bool == true && external["keycloak"] as? Bool == true)
            #expect(external["okta"] as? Bool == true && external["google"] as? Bool == false)
            #expect(external["apple"] as? Bool == false && external["email"] as? Bool == true)
        }
    }

    @Test func aSignedInUserLinksAProviderThroughItsPageAndTheOwnerIsTold() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let session = try await client.confirmedSession(email: "grace@example.com")
            let bearer = session.string("access_token")
            // The provider's account has another address: linked because the caller asked.
            scene.keycloak.behave { $0.profile = FakeProfile(subject: "kc-grace", email: "g.hopper@example.org") }
            let pkce = PKCEPair()
            let query = TestBrowser.formEncoded(
                [("provider", "keycloak"), ("redirect_to", OAuthScene.app), ("skip_http_redirect", "true")] + pkce.query
            )
            let start = try await client.get("/user/identities/authorize?" + query, bearer: bearer)
            #expect(start.status == .ok, "\(start.text)")
            let url = try #require(start.string("url"))
            #expect(url.hasPrefix(scene.keycloak.issuer + "/authorize?"))
            let browser = TestBrowser()
            let page = try await browser.get(url)
            let consent = try await browser.post(
                scene.keycloak.issuer + "/consent",
                form: [("request", try #require(page.hidden("request"))), ("decision", "allow")]
            )
            let landed = try await scene.follow(try #require(consent.location))
            let linked = try await scene.exchange(
                try #require(TestBrowser.fields(of: landed)["code"], "\(landed)"),
                verifier: pkce.verifier,
                client: client
            )
            #expect(linked.user["id"] as? String == session.user["id"] as? String, "\(linked.text)")
            let providers = (linked.user["identities"] as? [[String: Any]] ?? []).compactMap {
                $0["provider"] as? String
            }
            #expect(Set(providers) == ["email", "keycloak"] || Set(providers) == ["keycloak"], "\(providers)")
            try await client.waitForMail(
                to: "grace@example.com",
                subject: AccountNotice.mail(.wayInAdded, to: "-").subject
            )
            // Without a bearer there is nothing to link to.
            let anonymous = try await client.get("/user/identities/authorize?provider=keycloak")
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func linkingLongAfterSignInNeedsAReauthenticationCode() async throws {
        let scene = try await OAuthScene.make()
        try await scene.run { client in
            let session = try await client.confirmedSession(email: "lin@example.com")
            scene.clock.advance(by: 3600)
            let refused = try await client.get(
                "/user/identities/authorize?provider=keycloak&skip_http_redirect=true",
                bearer: session.string("access_token")
            )
            #expect(refused.status == .badRequest && refused.errorCode == "reauthentication_needed")
        }
    }

    @Test func aLoopbackRedirectIsAllowedOnAnyPortWhenTheListNamesTheLoopbackAddress() async throws {
        let scene = try await OAuthScene.make { configuration in
            configuration.uriAllowList = [RedirectPolicy.Entry("http://127.0.0.1/callback")!]
        }
        try await scene.run { _ in
            let landed = try await scene.signIn(
                "github",
                query: [("redirect_to", "http://127.0.0.1:53682/callback")] + PKCEPair().query
            )
            #expect(landed.hasPrefix("http://127.0.0.1:53682/callback?code="), "\(landed)")
            // Another path, or `localhost`, is not the loopback entry.
            let elsewhere = try await scene.signIn(
                "github",
                query: [("redirect_to", "http://127.0.0.1:53682/other")] + PKCEPair().query
            )
            #expect(elsewhere.hasPrefix(OAuthScene.site + "?code="), "\(elsewhere)")
        }
    }
}
