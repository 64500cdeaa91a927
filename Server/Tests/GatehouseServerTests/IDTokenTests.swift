import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Sign in with Apple and Google (issue 5; security.md section 7, J-8): provider keys made in
/// the test and served from a loopback JWKS endpoint.
@Suite("Apple and Google ID tokens")
struct IDTokenTests {
    static let appleClient = "com.example.app"
    static let googleClient = "1234-ios.apps.googleusercontent.com"

    /// A server that accepts tokens of a fake Apple and a fake Google.
    static func withProviders(
        _ body: @escaping @Sendable (Client, FakeProvider, FakeProvider, Harness) async throws -> Void
    ) async throws {
        let apple = try await FakeProvider.start(issuer: "https://appleid.apple.com", clientID: appleClient)
        let google = try await FakeProvider.start(issuer: "https://accounts.google.com", clientID: googleClient)
        let harness = try await Harness.make { configuration in
            configuration.apple = IdentityProviderSettings(clientIDs: [appleClient], jwksURL: apple.url)
            configuration.google = IdentityProviderSettings(clientIDs: [googleClient], jwksURL: google.url)
        }
        defer { harness.removeFiles() }
        do {
            try await harness.live { client in try await body(client, apple, google, harness) }
        } catch {
            await apple.stop()
            await google.stop()
            throw error
        }
        await apple.stop()
        await google.stop()
    }

    /// `POST /token?grant_type=id_token` with a fresh nonce (unless one is given).
    static func signIn(
        _ client: Client,
        _ provider: FakeProvider,
        at now: Date,
        subject: String = "provider-user-1",
        email: String? = "ada@example.com",
        emailVerified: Any = true,
        claims: [String: Any] = [:],
        header: [String: Any] = [:],
        key: FakeProvider.Key? = nil,
        nonce: String = UUID().uuidString,
        tokenNonce: String?? = nil,
        link bearer: String? = nil
    ) async throws -> Reply {
        let token = try provider.token(
            now: now,
            subject: subject,
            rawNonce: tokenNonce ?? nonce,
            email: email,
            emailVerified: emailVerified,
            claims: claims,
            header: header,
            key: key
        )
        return try await grant(client, provider: provider, token: token, nonce: nonce, link: bearer)
    }

    static func grant(
        _ client: Client,
        provider: FakeProvider,
        token: String,
        nonce: String?,
        link bearer: String? = nil
    ) async throws -> Reply {
        var body: [String: Any] = [
            "provider": provider.issuer.contains("apple") ? "apple" : "google", "id_token": token,
        ]
        if let nonce { body["nonce"] = nonce }
        if bearer != nil { body["link_identity"] = true }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await client.post("/token?grant_type=id_token", json, bearer: bearer)
    }

    static func identities(_ reply: Reply) -> [[String: Any]] {
        reply.user["identities"] as? [[String: Any]] ?? []
    }

    @Test func aValidAppleTokenSignsInAndTheIdentityKeepsItsAddress() async throws {
        try await Self.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let first = try await Self.signIn(client, apple, at: now, emailVerified: "true")
            #expect(first.status == .ok, "\(first.text)")
            let userID = try #require(first.user["id"] as? String)
            #expect(first.user["email"] as? String == "ada@example.com")
            #expect(first.user["email_confirmed_at"] != nil, "Apple vouches for the address")
            #expect(Self.identities(first).map { $0["provider"] as? String } == ["apple"])
            #expect(Self.identities(first).first?["id"] as? String == "provider-user-1")
            // Apple sends the address only the first time: a later sign-in keeps the stored one.
            let second = try await Self.signIn(client, apple, at: now, email: nil)
            #expect(second.status == .ok)
            #expect(second.user["id"] as? String == userID)
            let me = try await client.get("/user", bearer: second.string("access_token"))
            #expect(Self.identities(me).first?["email"] as? String == "ada@example.com")
            #expect(apple.fetchCount == 1, "keys are cached")
        }
    }

    @Test func forgedOrMisdirectedTokensAreRefusedWithTheRightCode() async throws {
        try await Self.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let stranger = try await FakeProvider.Key.make(kid: apple.currentKey.kid)
            let publicPEM = apple.currentKey.publicPEM
            let publicDER = apple.currentKey.publicDER
            let publicJWK = try JSONSerialization.data(withJSONObject: apple.currentKey.jwk, options: .sortedKeys)
            let valid = try apple.token(now: now)
            let parts = valid.split(separator: ".").map(String.init)
            let alg = (FakeProvider.encode(["alg": "none", "kid": apple.currentKey.kid]), parts[1])
            let cases: [(String, String, String?, String)] = [
                (
                    "wrong issuer", try apple.token(now: now, claims: ["iss": "https://evil.example"]), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "wrong audience", try apple.token(now: now, claims: ["aud": "com.other.app"]), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "ours plus another audience",
                    try apple.token(now: now, claims: ["aud": [Self.appleClient, "com.other.app"]]), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "expired past the leeway",
                    try apple.token(now: now, claims: ["exp": Int(now.timeIntervalSince1970) - 31]), "raw-nonce",
                    "id_token_invalid"
                ),
                ("no expiry", try apple.token(now: now, claims: ["exp": NSNull()]), "raw-nonce", "id_token_invalid"),
                (
                    "future nbf", try apple.token(now: now, claims: ["nbf": Int(now.timeIntervalSince1970) + 300]),
                    "raw-nonce", "id_token_invalid"
                ),
                ("bad signature", try apple.token(now: now, key: stranger), "raw-nonce", "id_token_invalid"),
                (
                    "bit-flipped signature", parts[0] + "." + parts[1] + "." + String(parts[2].reversed()), "raw-nonce",
                    "id_token_invalid"
                ),
                ("alg none", alg.0 + "." + alg.1 + ".", "raw-nonce", "id_token_invalid"),
                (
                    "HS256 keyed with the public PEM",
                    apple.hmacToken(now: now, secret: publicPEM, kid: apple.currentKey.kid), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "HS256 keyed with the public DER",
                    apple.hmacToken(now: now, secret: publicDER, kid: apple.currentKey.kid), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "HS256 keyed with the JWK JSON",
                    apple.hmacToken(now: now, secret: publicJWK, kid: apple.currentKey.kid), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "unknown kid", try apple.token(now: now, header: ["kid": "not-published"]), "raw-nonce",
                    "id_token_invalid"
                ),
                (
                    "no kid", try apple.token(now: now, header: ["kid": "", "x": NSNull()]), "raw-nonce",
                    "id_token_invalid"
                ),
                ("nonce mismatch", try apple.token(now: now), "another-nonce", "id_token_nonce_invalid"),
                (
                    "token has no nonce but one was sent", try apple.token(now: now, rawNonce: nil), "raw-nonce",
                    "id_token_nonce_invalid"
                ),
                ("no nonce sent", try apple.token(now: now), nil, "id_token_nonce_invalid"),
                ("not a JWT", "not.a-jwt", "raw-nonce", "id_token_invalid"),
            ]
            for (name, token, nonce, code) in cases {
                let reply = try await Self.grant(client, provider: apple, token: token, nonce: nonce)
                #expect(reply.status == .badRequest, "\(name): \(reply.status) \(reply.text)")
                #expect(reply.errorCode == code, "\(name): \(reply.text)")
            }
            #expect(apple.fetchCount == 1, "an unknown kid refetches at most once a minute")
            // The valid token still works after all that: nothing above consumed its nonce.
            let ok = try await Self.grant(client, provider: apple, token: valid, nonce: "raw-nonce")
            #expect(ok.status == .ok, "\(ok.text)")
            // J-8: an ID token is not a bearer token here.
            let bearer = try await client.get("/user", bearer: valid)
            #expect(bearer.status == .forbidden)
            // A nonce works once.
            let replay = try await Self.grant(client, provider: apple, token: valid, nonce: "raw-nonce")
            #expect(replay.status == .badRequest)
            #expect(replay.errorCode == "id_token_nonce_invalid")
        }
    }

    @Test func aRotationAtTheProviderIsPickedUp() async throws {
        try await Self.withProviders { client, apple, _, harness in
            #expect(try await Self.signIn(client, apple, at: harness.clock.now()).status == .ok)
            let old = apple.currentKey
            let new = try await FakeProvider.Key.make()
            apple.publish([new])
            // Within a minute of the last fetch an unknown kid is refused without a refetch.
            let early = try await Self.signIn(client, apple, at: harness.clock.now(), key: new)
            #expect(early.errorCode == "id_token_invalid")
            #expect(apple.fetchCount == 1)
            harness.clock.advance(by: 61)
            let later = try await Self.signIn(client, apple, at: harness.clock.now(), key: new)
            #expect(later.status == .ok, "\(later.text)")
            #expect(apple.fetchCount == 2)
            // The retired key no longer verifies once the new set is loaded.
            let retired = try await Self.signIn(client, apple, at: harness.clock.now(), key: old)
            #expect(retired.errorCode == "id_token_invalid")
        }
    }

    @Test func anUnverifiedEmailNeverLinksToAnExistingAccount() async throws {
        try await Self.withProviders { client, _, google, harness in
            let account = try await client.confirmedSession(email: "ada@gmail.com")
            let accountID = try #require(account.user["id"] as? String)
            let now = harness.clock.now()
            let unverified = try await Self.signIn(
                client,
                google,
                at: now,
                email: "ada@gmail.com",
                emailVerified: false
            )
            #expect(unverified.status == .unprocessableContent)
            #expect(unverified.errorCode == "email_exists")
            // Google vouches for a verified Gmail address: the identity links to the account.
            let verified = try await Self.signIn(client, google, at: now, email: "ada@gmail.com", emailVerified: true)
            #expect(verified.status == .ok, "\(verified.text)")
            #expect(verified.user["id"] as? String == accountID)
            #expect(Set(Self.identities(verified).compactMap { $0["provider"] as? String }) == ["email", "google"])
            // A verified address outside Gmail without a Workspace domain is not vouched for.
            _ = try await client.confirmedSession(email: "bob@example.org")
            let corporate = try await Self.signIn(
                client,
                google,
                at: now,
                subject: "google-bob",
                email: "bob@example.org",
                emailVerified: true
            )
            #expect(corporate.errorCode == "email_exists")
            let workspace = try await Self.signIn(
                client,
                google,
                at: now,
                subject: "google-bob",
                email: "bob@example.org",
                emailVerified: true,
                claims: ["hd": "example.org"]
            )
            #expect(workspace.status == .ok)
            // Google's azp, when present, must be one of ours too.
            let presenter = try await Self.signIn(
                client,
                google,
                at: now,
                subject: "google-azp",
                email: nil,
                claims: ["azp": "another-app.apps.googleusercontent.com"]
            )
            #expect(presenter.errorCode == "id_token_invalid")
            let ours = try await Self.signIn(
                client,
                google,
                at: now,
                subject: "google-azp",
                email: nil,
                claims: ["azp": Self.googleClient]
            )
            #expect(ours.status == .ok)
        }
    }

    @Test func aGuestSignedInWithAppleKeepsItsIDOrMovesToTheExistingAccount() async throws {
        try await Self.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let guest = try await client.post("/signup", "{}")
            let guestID = try #require(guest.user["id"] as? String)
            let upgraded = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-guest",
                email: "guest@privaterelay.appleid.com",
                link: guest.string("access_token")
            )
            #expect(upgraded.status == .ok, "\(upgraded.text)")
            #expect(upgraded.user["id"] as? String == guestID, "upgraded in place")
            #expect(upgraded.user["is_anonymous"] as? Bool == false)
            #expect(upgraded.user["email"] as? String == "guest@privaterelay.appleid.com")
            // A second guest whose Apple account is already known is signed into that account.
            let other = try await client.post("/signup", "{}")
            let moved = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-guest",
                email: nil,
                link: other.string("access_token")
            )
            #expect(moved.status == .ok)
            #expect(moved.user["id"] as? String == guestID)
            #expect(moved.user["id"] as? String != other.user["id"] as? String)
            // Linking needs a bearer.
            let token = try apple.token(now: now, rawNonce: "n-link")
            let anonymous = try await client.post(
                "/token?grant_type=id_token",
                #"{"provider":"apple","id_token":"\#(token)","nonce":"n-link","link_identity":true}"#
            )
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func aSubjectLinkedToAnotherAccountIsIdentityAlreadyExists() async throws {
        try await Self.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let ada = try await client.confirmedSession(email: "ada@example.org")
            let bob = try await client.confirmedSession(email: "bob@example.org")
            let linked = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-ada",
                email: nil,
                link: ada.string("access_token")
            )
            #expect(linked.status == .ok)
            #expect(linked.user["id"] as? String == ada.user["id"] as? String)
            let stolen = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-ada",
                email: nil,
                link: bob.string("access_token")
            )
            #expect(stolen.status == .unprocessableContent)
            #expect(stolen.errorCode == "identity_already_exists")
        }
    }

    @Test func identitiesUnlinkButNeverTheLastWayToSignIn() async throws {
        try await Self.withProviders { client, apple, google, harness in
            let now = harness.clock.now()
            let ada = try await client.confirmedSession(email: "ada@example.org")
            let linked = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-ada",
                email: nil,
                link: ada.string("access_token")
            )
            let access = linked.string("access_token")
            let appleIdentity = try #require(
                Self.identities(linked).first { $0["provider"] as? String == "apple" }?["identity_id"] as? String
            )
            let unknown = try await client.send(.delete, "/user/identities/\(UUID())", bearer: access)
            #expect(unknown.errorCode == "identity_not_found")
            let unlinked = try await client.send(.delete, "/user/identities/\(appleIdentity)", bearer: access)
            #expect(unlinked.status == .ok)
            #expect(Self.identities(try await client.get("/user", bearer: access)).count == 1)
            // Signing in with that Apple account again makes a new user: the link is gone.
            let fresh = try await Self.signIn(client, apple, at: now, subject: "apple-ada", email: nil)
            #expect(fresh.user["id"] as? String != ada.user["id"] as? String)
            // An Apple-only user cannot unlink its only identity.
            let only = try #require(Self.identities(fresh).first?["identity_id"] as? String)
            let refused = try await client.send(
                .delete,
                "/user/identities/\(only)",
                bearer: fresh.string("access_token")
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "single_identity_not_deletable")
            // With Google linked as well, Apple can go.
            let both = try await Self.signIn(
                client,
                google,
                at: now,
                subject: "google-x",
                email: nil,
                link: fresh.string("access_token")
            )
            #expect(Self.identities(both).count == 2)
            let allowed = try await client.send(
                .delete,
                "/user/identities/\(only)",
                bearer: both.string("access_token")
            )
            #expect(allowed.status == .ok)
        }
    }

    @Test func deletingAnAppleAccountRemovesEveryRowAndEndsItsTokens() async throws {
        try await Self.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let session = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-gone",
                email: "gone@example.com"
            )
            let access = try #require(session.string("access_token"))
            let refresh = try #require(session.string("refresh_token"))
            let userID = try #require(session.user["id"] as? String)
            let deleted = try await client.send(.delete, "/user", bearer: access)
            #expect(deleted.status == .ok)
            #expect(try await client.get("/user", bearer: access).status == .forbidden)
            #expect(try await client.refresh(refresh).status != .ok)
            let sessionID = try #require(JWTTests.decode(JWTTests.segments(access)[1])["session_id"] as? String)
            let rows = try await harness.server.storage.transaction { tx in
                (
                    try await tx.user(id: UUID(uuidString: userID)!),
                    try await tx.identity(provider: .apple, subject: "apple-gone"),
                    try await tx.session(id: UUID(uuidString: sessionID)!)
                )
            }
            #expect(rows.0 == nil && rows.1 == nil && rows.2 == nil, "no user, identity or session row remains")
            let audit = try await harness.server.storage.transaction { try await $0.auditEntries(limit: 5) }
            #expect(audit.contains { $0.action == .userDeleted && $0.actorID?.uuidString.lowercased() == userID })
            let again = try await Self.signIn(client, apple, at: now, subject: "apple-gone", email: "gone@example.com")
            #expect(again.status == .ok)
            #expect(again.user["id"] as? String != userID, "a new account, nothing left of the old")
        }
    }

    @Test func deletionLongAfterSignInNeedsAReauthenticationCode() async throws {
        try await Self.withProviders { client, _, _, harness in
            let session = try await client.confirmedSession(email: "ada@example.org")
            harness.clock.advance(by: 25 * 3600)
            let refreshed = try await client.refresh(try #require(session.string("refresh_token")))
            let stale = try await client.send(.delete, "/user", bearer: refreshed.string("access_token"))
            #expect(stale.errorCode == "reauthentication_needed")
            let mailed = await client.mailCount(to: "ada@example.org")
            #expect(try await client.get("/reauthenticate", bearer: refreshed.string("access_token")).status == .ok)
            let code = try await client.waitForCode(to: "ada@example.org", after: mailed)
            let wrong = try await client.send(
                .delete,
                "/user",
                json: #"{"nonce":"000000"}"#,
                bearer: refreshed.string("access_token")
            )
            if code != "000000" { #expect(wrong.errorCode == "reauthentication_not_valid") }
            let deleted = try await client.send(
                .delete,
                "/user",
                json: #"{"nonce":"\#(code)"}"#,
                bearer: refreshed.string("access_token")
            )
            #expect(deleted.status == .ok)
        }
    }

    @Test func aKeySetOutageIsA503AndADisabledProviderIsNamed() async throws {
        let harness = try await Harness.make { configuration in
            // Nothing listens on port 9 (discard) on loopback.
            configuration.apple = IdentityProviderSettings(
                clientIDs: [Self.appleClient],
                jwksURL: URL(string: "http://127.0.0.1:9/keys")!
            )
        }
        defer { harness.removeFiles() }
        let apple = try await FakeProvider.start(issuer: "https://appleid.apple.com", clientID: Self.appleClient)
        try await harness.live { client in
            let outage = try await Self.signIn(client, apple, at: harness.clock.now())
            #expect(outage.status == .serviceUnavailable)
            #expect(outage.errorCode == "provider_unavailable")
            #expect(outage.header("Retry-After") != nil)
            let google = try await client.post(
                "/token?grant_type=id_token",
                #"{"provider":"google","id_token":"a.b.c","nonce":"n"}"#
            )
            #expect(google.status == .badRequest)
            #expect(google.errorCode == "provider_disabled")
            #expect(google.string("msg")?.contains("GATEHOUSE_GOOGLE_CLIENT_IDS") == true)
        }
        await apple.stop()
    }

    @Test func providerSettingsComeFromTheEnvironment() throws {
        let configuration = try ServerConfiguration(environment: [
            "GATEHOUSE_APPLE_CLIENT_IDS": "com.example.app, com.example.web",
            "GATEHOUSE_GOOGLE_JWKS_URL": "http://127.0.0.1:8080/certs",
        ])
        #expect(configuration.apple.clientIDs == ["com.example.app", "com.example.web"])
        #expect(configuration.apple.isEnabled && !configuration.google.isEnabled)
        #expect(configuration.google.jwksURL.absoluteString == "http://127.0.0.1:8080/certs")
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_APPLE_JWKS_URL": "http://keys.example.com/keys"])
        }
    }
}
