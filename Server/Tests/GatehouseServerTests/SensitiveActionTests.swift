import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 31, findings 2 and 7 (`security.md` SA-2, SA-3): what a caller must prove for a sensitive
/// action, played by the attacker (a stolen, older access token; a password-only session of an MFA
/// user) and by the owner (a fresh session, a reauthentication code), over HTTP.
@Suite("Sensitive actions: proof and notices")
struct SensitiveActionTests {
    static let owner = "ada@example.com"

    /// A reauthentication code mailed to the owner for `bearer`.
    static func nonce(_ client: Client, bearer: String?) async throws -> String {
        let mailed = await client.mailCount(to: owner)
        #expect(try await client.get("/reauthenticate", bearer: bearer).status == .ok)
        return try await client.waitForCode(to: owner, after: mailed)
    }

    // MARK: Finding 2: linking a provider

    @Test func aStolenOlderAccessTokenCannotLinkTheAttackersProvider() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let session = try await client.confirmedSession(email: Self.owner)
            let stolen = session.string("access_token")
            // Eleven minutes later the token still works, but it is no proof of a recent sign-in.
            harness.clock.advance(by: 660)
            #expect(try await client.get("/user", bearer: stolen).status == .ok)
            let link = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "attacker-google",
                email: "attacker@gmail.com",
                link: stolen
            )
            #expect(link.status == .badRequest, "\(link.text)")
            #expect(link.errorCode == "reauthentication_needed")
            let user = try await client.get("/user", bearer: stolen)
            #expect(!IDTokenTests.identities(user).contains { $0["provider"] as? String == "google" })
            // The attacker's Google account signs in to nothing of the owner's.
            let attacker = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "attacker-google",
                email: "attacker@gmail.com"
            )
            #expect(attacker.user["id"] as? String != session.user["id"] as? String)
        }
    }

    @Test func theOwnerLinksFromAFreshSessionOrWithACodeAndIsTold() async throws {
        try await IDTokenTests.withProviders { client, apple, google, harness in
            let session = try await client.confirmedSession(email: Self.owner)
            let fresh = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "owner-google",
                email: "owner@gmail.com",
                link: session.string("access_token")
            )
            #expect(fresh.status == .ok, "\(fresh.text)")
            #expect(fresh.user["id"] as? String == session.user["id"] as? String)
            try await client.waitForMail(to: Self.owner, subject: "A new way to sign in was added to your account")
            // Later, with a reauthentication code instead of a recent sign-in.
            harness.clock.advance(by: 3000)
            let later = try await client.refresh(try #require(session.string("refresh_token")))
            let bearer = later.string("access_token")
            let nonce = try await Self.nonce(client, bearer: bearer)
            let token = try apple.token(now: harness.clock.now(), subject: "owner-apple", rawNonce: "n1", email: nil)
            let body =
                #"{"provider":"apple","id_token":"\#(token)","nonce":"n1","link_identity":true,"reauthentication_nonce":"\#(nonce)"}"#
            let linked = try await client.post("/token?grant_type=id_token", body, bearer: bearer)
            #expect(linked.status == .ok, "\(linked.text)")
            let providers = Set(IDTokenTests.identities(linked).compactMap { $0["provider"] as? String })
            #expect(providers.isSuperset(of: ["apple", "google"]))
        }
    }

    @Test func aPasswordOnlySessionOfAnMFAUserCannotLink() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let (_, _) = try await client.userWithFactor(Self.owner, clock: harness.clock)
            let aal1 = try await client.signIn(Self.owner).string("access_token")
            let link = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "attacker-google",
                email: "attacker@gmail.com",
                link: aal1
            )
            #expect(link.status == .unauthorized)
            #expect(link.errorCode == "insufficient_aal")
        }
    }

    @Test func aGuestLinksWithoutProofAndBecomesPermanent() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let guest = try await client.post("/signup", "{}")
            harness.clock.advance(by: 3600 * 5)
            let refreshed = try await client.refresh(try #require(guest.string("refresh_token")))
            let linked = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "guest-google",
                email: "guest@gmail.com",
                link: refreshed.string("access_token")
            )
            #expect(linked.status == .ok, "a guest has no other way in to protect: \(linked.text)")
            #expect(linked.user["id"] as? String == guest.user["id"] as? String)
        }
    }

    // MARK: Finding 7: AAL1 sessions and older tokens acting on the owner's sessions

    @Test func aPasswordOnlySessionOfAnMFAUserCannotSeeOrEndTheOwnersSessions() async throws {
        try await Harness.make().withVerifiedFactor { scene in
            let (client, aal2) = (scene.client, scene.token)
            let aal2Session = try #require(accessClaims(aal2)["session_id"] as? String)
            let aal1 = try await client.signIn(Self.owner).string("access_token")
            let listing = try await client.get("/user/sessions", bearer: aal1)
            #expect(listing.status == .unauthorized && listing.errorCode == "insufficient_aal")
            let ending = try await client.send(.delete, "/user/sessions/\(aal2Session)", bearer: aal1)
            #expect(ending.errorCode == "insufficient_aal")
            let others = try await client.post("/logout?scope=others", bearer: aal1)
            #expect(others.errorCode == "insufficient_aal")
            #expect(try await client.get("/user", bearer: aal2).status == .ok, "the AAL2 session lives")
            let global = try await client.post("/logout?scope=global", bearer: aal1)
            #expect(global.errorCode == "insufficient_aal")
            #expect(try await client.get("/user", bearer: aal1).errorCode == "session_not_found", "its own ended")
            #expect(try await client.get("/user", bearer: aal2).status == .ok, "the AAL2 session lives")
            let rename = try await client.send(
                .patch,
                "/passkeys/\(UUID().uuidString)",
                json: #"{"friendly_name":"mine"}"#,
                bearer: try await client.signIn(Self.owner).string("access_token")
            )
            #expect(rename.errorCode == "insufficient_aal")
            // The owner's AAL2 session does all of it.
            #expect(try await client.get("/user/sessions", bearer: aal2).status == .ok)
            #expect(try await client.post("/logout?scope=others", bearer: aal2).status == .noContent)
        }
    }

    @Test func anOlderStolenTokenCannotSignTheOwnerOutElsewhere() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let stolen = try await client.confirmedSession(email: Self.owner)
            let device = try await client.signIn(Self.owner)
            harness.clock.advance(by: 660)
            let others = try await client.post("/logout?scope=others", bearer: stolen.string("access_token"))
            #expect(others.status == .badRequest && others.errorCode == "reauthentication_needed")
            #expect(try await client.get("/user", bearer: device.string("access_token")).status == .ok)
            // The default scope: the caller's own session ends, the others stay, and it says why.
            let global = try await client.post("/logout", bearer: stolen.string("access_token"))
            #expect(global.errorCode == "reauthentication_needed")
            #expect(try await client.get("/user", bearer: stolen.string("access_token")).status == .forbidden)
            #expect(try await client.get("/user", bearer: device.string("access_token")).status == .ok)
            let deviceID = try #require(accessClaims(device.string("access_token"))["session_id"] as? String)
            let fresh = try await client.signIn(Self.owner)
            harness.clock.advance(by: 660)
            let ending = try await client.send(
                .delete,
                "/user/sessions/\(deviceID)",
                bearer: fresh.string("access_token")
            )
            #expect(ending.errorCode == "reauthentication_needed")
        }
    }

    @Test func theOwnerSignsOutEverywhereFreshOrWithACode() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let first = try await client.confirmedSession(email: Self.owner)
            let second = try await client.signIn(Self.owner)
            let third = try await client.signIn(Self.owner)
            #expect(
                try await client.post("/logout?scope=others", bearer: third.string("access_token")).status == .noContent
            )
            #expect(try await client.get("/user", bearer: first.string("access_token")).status == .forbidden)
            #expect(try await client.get("/user", bearer: second.string("access_token")).status == .forbidden)
            let device = try await client.signIn(Self.owner)
            harness.clock.advance(by: 3000)
            let bearer = try await client.refresh(try #require(third.string("refresh_token"))).string("access_token")
            let nonce = try await Self.nonce(client, bearer: bearer)
            let global = try await client.post("/logout?scope=global", #"{"nonce":"\#(nonce)"}"#, bearer: bearer)
            #expect(global.status == .noContent)
            #expect(try await client.get("/user", bearer: device.string("access_token")).status == .forbidden)
            // A local sign-out never needs proof.
            let last = try await client.signIn(Self.owner)
            harness.clock.advance(by: 3000)
            let local = try await client.refresh(try #require(last.string("refresh_token"))).string("access_token")
            #expect(try await client.post("/logout?scope=local", bearer: local).status == .noContent)
        }
    }

    @Test func unlinkingNeedsAAL2AndProofAndTellsTheOwner() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let (verified, _) = try await client.userWithFactor(Self.owner, clock: harness.clock)
            let aal2 = verified.string("access_token")
            let linked = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "owner-google",
                email: "owner@gmail.com",
                link: aal2
            )
            #expect(linked.status == .ok, "\(linked.text)")
            let identity = try #require(
                IDTokenTests.identities(linked).first { $0["provider"] as? String == "google" }?["identity_id"]
                    as? String
            )
            let aal1 = try await client.signIn(Self.owner).string("access_token")
            let refused = try await client.send(.delete, "/user/identities/\(identity)", bearer: aal1)
            #expect(refused.errorCode == "insufficient_aal")
            // The owner's AAL2 session, a while later, needs a code.
            harness.clock.advance(by: 660)
            let stale = try await client.send(.delete, "/user/identities/\(identity)", bearer: aal2)
            #expect(stale.errorCode == "reauthentication_needed")
            let nonce = try await Self.nonce(client, bearer: aal2)
            let removed = try await client.send(
                .delete,
                "/user/identities/\(identity)",
                json: #"{"nonce":"\#(nonce)"}"#,
                bearer: aal2
            )
            #expect(removed.status == .ok, "\(removed.text)")
            try await client.waitForMail(to: Self.owner, subject: "A way to sign in was removed from your account")
        }
    }

    // MARK: The other entries

    @Test func enrollingAFactorNeedsARecentSignIn() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: Self.owner)
            harness.clock.advance(by: 660)
            let stale = try await client.post(
                "/factors",
                #"{"factor_type":"totp"}"#,
                bearer: session.string("access_token")
            )
            #expect(stale.errorCode == "reauthentication_needed")
            let nonce = try await Self.nonce(client, bearer: session.string("access_token"))
            let enrolled = try await client.post(
                "/factors",
                #"{"factor_type":"totp","nonce":"\#(nonce)"}"#,
                bearer: session.string("access_token")
            )
            #expect(enrolled.status == .ok, "\(enrolled.text)")
        }
    }

    @Test func newAndRemovedFactorsAndDeletionAreToldToTheOwner() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (verified, factor) = try await client.userWithFactor(Self.owner, clock: harness.clock)
            try await client.waitForMail(to: Self.owner, subject: "A new way to sign in was added to your account")
            let aal2 = verified.string("access_token")
            let removed = try await client.send(.delete, "/factors/\(factor.id)", bearer: aal2)
            #expect(removed.status == .ok)
            try await client.waitForMail(to: Self.owner, subject: "A way to sign in was removed from your account")
            harness.clock.advance(by: 660)
            let stale = try await client.send(.delete, "/user", bearer: aal2)
            #expect(stale.errorCode == "reauthentication_needed")
            let fresh = try await client.signIn(Self.owner)
            #expect(try await client.send(.delete, "/user", bearer: fresh.string("access_token")).status == .ok)
            try await client.waitForMail(to: Self.owner, subject: "Your account was deleted")
            let notices = await client.mailer.sent.filter { $0.to == Self.owner && $0.subject.hasPrefix("A ") }
            #expect(notices.allSatisfy { CapturingMailer.code(in: $0.body) == nil && !$0.body.contains("http") })
        }
    }

    @Test func aPasswordChangeNeedsARecentSignInACodeOrTheCurrentPassword() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: Self.owner)
            let bearer = session.string("access_token")
            harness.clock.advance(by: 660)
            let stale = try await client.send(.put, "/user", json: #"{"password":"a new passphrase"}"#, bearer: bearer)
            #expect(stale.errorCode == "reauthentication_needed")
            let withCurrent = try await client.send(
                .put,
                "/user",
                json: #"{"password":"a new passphrase","current_password":"correct horse battery"}"#,
                bearer: bearer
            )
            #expect(withCurrent.status == .ok, "\(withCurrent.text)")
            try await client.waitForMail(to: Self.owner, subject: "Your password was changed")
            let address = try await client.send(.put, "/user", json: #"{"email":"new@example.com"}"#, bearer: bearer)
            #expect(address.errorCode == "reauthentication_needed")
        }
    }
}
