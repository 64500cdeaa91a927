import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import HTTPTypes
import Testing

/// The passkey routes' rules that need no authenticator: switched off, challenge expiry and
/// binding, the recent-sign-in rule, and an attacker's requests. Ceremonies with real
/// credentials: ``PasskeyInteropTests`` (Python) and the SDK's end-to-end tests (Swift).
@Suite("Passkeys: rules over HTTP")
struct PasskeyTests {
    static func enabled(_ configuration: inout ServerConfiguration) {
        configuration.webAuthn = WebAuthnSettings(rpID: "example.com", origins: ["https://example.com"])
    }

    static let junkCredential = #"{"type":"public-key","id":"AAAA","response":{"clientDataJSON":"e30"}}"#

    @Test func offUnlessAnRPIDIsSet() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            #expect(try await client.get("/settings")["passkeys_enabled"] as? Bool == false)
            let options = try await client.post("/passkeys/authentication/options")
            #expect(options.status == .notFound)
            #expect(options.errorCode == "passkey_disabled")
            let guest = try await client.post("/signup", "{}")
            let registration = try await client.post(
                "/passkeys/registration/options",
                bearer: guest.string("access_token")
            )
            #expect(registration.errorCode == "passkey_disabled")
        }
    }

    @Test func optionsHaveSupabasesShape() async throws {
        let harness = try await Harness.make(Self.enabled)
        defer { harness.removeFiles() }
        try await harness.live { client in
            #expect(try await client.get("/settings")["passkeys_enabled"] as? Bool == true)
            let reply = try await client.post("/passkeys/authentication/options")
            #expect(reply.status == .ok)
            #expect(Set(reply.json.keys) == ["challenge_id", "options", "expires_at"])
            let options = try #require(reply["options"] as? [String: Any])
            #expect(options["rpId"] as? String == "example.com")
            #expect(options["userVerification"] as? String == "required")
            #expect(options["allowCredentials"] == nil)
            #expect((options["challenge"] as? String)?.count == 43)
            #expect(reply["expires_at"] as? Int == Int(harness.clock.now().timeIntervalSince1970) + 300)

            let guest = try await client.post("/signup", "{}")
            let creation = try await client.post("/passkeys/registration/options", bearer: guest.string("access_token"))
            let create = try #require(creation["options"] as? [String: Any])
            #expect((create["rp"] as? [String: Any])?["id"] as? String == "example.com")
            let algorithms = (create["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int }
            #expect(algorithms == [-7, -8, -257])
            let selection = try #require(create["authenticatorSelection"] as? [String: Any])
            #expect(selection["residentKey"] as? String == "required")
            #expect(selection["userVerification"] as? String == "required")
            #expect(create["attestation"] as? String == "none")
            let userID = (create["user"] as? [String: Any])?["id"] as? String
            let guestID = try #require(guest.user["id"] as? String)
            #expect(
                userID
                    == Data(guestID.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            )
        }
    }

    @Test func anExpiredChallengeIsRefused() async throws {
        let harness = try await Harness.make(Self.enabled)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let options = try await client.post("/passkeys/authentication/options")
            let id = try #require(options.string("challenge_id"))
            harness.clock.advance(by: 301)
            let late = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(id)","credential":\#(Self.junkCredential)}"#
            )
            #expect(late.status == .badRequest)
            #expect(late.errorCode == "webauthn_challenge_expired")
            let again = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(id)","credential":\#(Self.junkCredential)}"#
            )
            #expect(again.errorCode == "webauthn_challenge_not_found")
        }
    }

    @Test func aChallengeServesOnlyItsCeremonyAndItsUser() async throws {
        let harness = try await Harness.make(Self.enabled)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let alice = try await client.post("/signup", "{}")
            let mallory = try await client.post("/signup", "{}")
            let aliceOptions = try await client.post(
                "/passkeys/registration/options",
                bearer: alice.string("access_token")
            )
            let aliceChallenge = try #require(aliceOptions.string("challenge_id"))
            let body = #"{"challenge_id":"\#(aliceChallenge)","credential":\#(Self.junkCredential)}"#
            let stolen = try await client.post(
                "/passkeys/registration/verify",
                body,
                bearer: mallory.string("access_token")
            )
            #expect(stolen.errorCode == "webauthn_challenge_not_found")
            let asSignIn = try await client.post("/passkeys/authentication/verify", body)
            #expect(asSignIn.errorCode == "webauthn_challenge_not_found")
            // Neither attempt used Alice's challenge up: her own (malformed) attempt reaches verification.
            let own = try await client.post("/passkeys/registration/verify", body, bearer: alice.string("access_token"))
            #expect(own.errorCode == "webauthn_verification_failed")

            let signIn = try await client.post("/passkeys/authentication/options")
            let signInBody =
                #"{"challenge_id":"\#(try #require(signIn.string("challenge_id")))","credential":\#(Self.junkCredential)}"#
            let asRegistration = try await client.post(
                "/passkeys/registration/verify",
                signInBody,
                bearer: alice.string("access_token")
            )
            #expect(asRegistration.errorCode == "webauthn_challenge_not_found")
        }
    }

    @Test func aPermanentAccountNeedsARecentSignInOrAReauthenticationCode() async throws {
        let harness = try await Harness.make(Self.enabled)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let email = "ada@example.com"
            let session = try await client.confirmedSession(email: email)
            let fresh = try await client.post("/passkeys/registration/options", bearer: session.string("access_token"))
            #expect(fresh.status == .ok)
            harness.clock.advance(by: 601)
            let refreshed = try await client.refresh(try #require(session.string("refresh_token")))
            let token = refreshed.string("access_token")
            let stale = try await client.post("/passkeys/registration/options", bearer: token)
            #expect(stale.status == .badRequest)
            #expect(stale.errorCode == "reauthentication_needed")
            let wrong = try await client.post("/passkeys/registration/options", #"{"nonce":"000000"}"#, bearer: token)
            #expect(wrong.errorCode == "reauthentication_not_valid")
            #expect(try await client.get("/reauthenticate", bearer: token).status == .ok)
            let nonce = try await client.waitForCode(to: email, subject: "Confirm it is you")
            let reauthenticated = try await client.post(
                "/passkeys/registration/options",
                #"{"nonce":"\#(nonce)"}"#,
                bearer: token
            )
            #expect(reauthenticated.status == .ok)
            #expect(reauthenticated.string("challenge_id") != nil)
        }
    }

    @Test func anAttackerGetsStableRefusals() async throws {
        let harness = try await Harness.make(Self.enabled)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            let token = guest.string("access_token")
            let unauthenticated = try await client.get("/passkeys")
            #expect(unauthenticated.status == .unauthorized)
            let verify = try await client.post("/passkeys/authentication/verify", #"{"credential":{}}"#)
            #expect(verify.errorCode == "validation_failed")
            let badID = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"x","credential":{}}"#
            )
            // Supabase's answers (issue 31, finding 16), before any challenge is looked up.
            #expect(badID.status == .badRequest && badID.errorCode == "validation_failed")
            #expect(badID.text.contains("challenge_id must be a valid UUID"))
            let noCredential = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(UUID().uuidString)"}"#
            )
            #expect(noCredential.status == .badRequest && noCredential.errorCode == "validation_failed")
            #expect(noCredential.text.contains("credential is required"))
            let unknown = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(UUID().uuidString)","credential":{}}"#
            )
            #expect(unknown.errorCode == "webauthn_challenge_not_found", "a well-formed id is looked up")
            for path in ["/passkeys/registration/verify"] {
                let registration = try await client.post(path, #"{"challenge_id":"x","credential":{}}"#, bearer: token)
                #expect(registration.errorCode == "validation_failed")
                #expect(registration.text.contains("challenge_id must be a valid UUID"))
            }
            let notJSON = try await client.post("/passkeys/authentication/verify", "{")
            #expect(notJSON.errorCode == "bad_json")
            let missing = try await client.send(.delete, "/passkeys/\(UUID().uuidString)", bearer: token)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "webauthn_credential_not_found")
            let badPath = try await client.send(.delete, "/passkeys/not-a-uuid", bearer: token)
            #expect(badPath.errorCode == "webauthn_credential_not_found")
            let rename = try await client.send(
                .patch,
                "/passkeys/\(UUID().uuidString)",
                json: #"{"friendly_name":"a\u0000b"}"#,
                bearer: token
            )
            #expect(rename.errorCode == "validation_failed")
            let admin = try await client.get(
                "/admin/users/\(try #require(guest.user["id"] as? String))/passkeys",
                bearer: token
            )
            #expect(admin.status == .forbidden)
            let huge = String(repeating: "A", count: 200_000)
            let options = try await client.post("/passkeys/authentication/options")
            let big = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(try #require(options.string("challenge_id")))","credential":{"type":"public-key","id":"AAAA","response":{"clientDataJSON":"\#(huge)"}}}"#
            )
            #expect(big.errorCode == "webauthn_verification_failed")
        }
    }

    @Test func aUserWithASecondFactorManagesPasskeysAtAAL2Only() async throws {
        let harness = try await Harness.make(Self.enabled)
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let (aal2, _) = try await client.userWithFactor("ada@example.com", clock: clock)
            let aal1 = try await client.signIn("ada@example.com").string("access_token")
            let refused = try await client.post("/passkeys/registration/options", bearer: aal1)
            #expect(refused.status == .unauthorized)
            #expect(refused.errorCode == "insufficient_aal")
            let removal = try await client.send(.delete, "/passkeys/\(UUID().uuidString)", bearer: aal1)
            #expect(removal.errorCode == "insufficient_aal")
            let allowed = try await client.post("/passkeys/registration/options", bearer: aal2.string("access_token"))
            #expect(allowed.status == .ok)
        }
    }

    @Test func theCeremoniesHaveTheirOwnRateLimitPerClient() async throws {
        let harness = try await Harness.make {
            Self.enabled(&$0)
            $0.rateLimits.passkey = 4
            $0.rateLimits.token = 1
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            let token = guest.string("access_token")
            // The /token window is full; passkey sign-ins do not count against it.
            #expect(try await client.refresh(try #require(guest.string("refresh_token"))).status == .ok)
            let options = try await client.post("/passkeys/authentication/options")
            #expect(options.status == .ok)
            let challenge = try #require(options.string("challenge_id"))
            let verify = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(challenge)","credential":\#(Self.junkCredential)}"#
            )
            #expect(verify.errorCode == "webauthn_credential_not_found")
            #expect(try await client.post("/passkeys/registration/options", bearer: token).status == .ok)
            #expect(try await client.post("/passkeys/authentication/options").status == .ok)
            for limited in [
                try await client.post("/passkeys/authentication/options"),
                try await client.post("/passkeys/authentication/verify", #"{"challenge_id":"\#(challenge)"}"#),
                try await client.post("/passkeys/registration/options", bearer: token),
                try await client.post("/passkeys/registration/verify", "{}", bearer: token),
            ] {
                #expect(limited.status == .tooManyRequests)
                #expect(limited.errorCode == "over_request_rate_limit")
                #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
            }
            // Listing is not a ceremony, and the window reopens after 5 minutes.
            #expect(try await client.get("/passkeys", bearer: token).status == .ok)
            harness.clock.advance(by: 301)
            #expect(try await client.post("/passkeys/authentication/options").status == .ok)
        }
    }
}
