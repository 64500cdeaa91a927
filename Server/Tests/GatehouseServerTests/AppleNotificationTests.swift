import Foundation
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `POST /apple/notifications` (issue 21): Apple's server-to-server notifications, signed by a
/// fake Apple on loopback, each doing what it says; forged, foreign, stale and replayed ones.
@Suite("Apple's server-to-server notifications")
struct AppleNotificationTests {
    typealias Setup = AppleTokenTests

    static func notify(_ client: Client, _ body: String) async throws -> Reply {
        try await client.post("/apple/notifications", body)
    }

    static func refresh(_ client: Client, _ session: Reply) async throws -> Reply {
        try await client.post(
            "/token?grant_type=refresh_token",
            #"{"refresh_token":"\#(session.string("refresh_token") ?? "")"}"#
        )
    }

    @Test func consentRevokedEndsAppleSessionsAndForgetsTheToken() async throws {
        try await Setup.withApple { client, apple, harness in
            let session = try await Setup.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            let identityID = try Setup.appleIdentityID(session)
            #expect(try await Setup.storedToken(harness, identityID) != nil)
            let now = harness.clock.now()
            let reply = try await Self.notify(
                client,
                try apple.notification("consent-revoked", subject: "apple-1", now: now)
            )
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try await Self.refresh(client, session).errorCode == "refresh_token_not_found")
            #expect(try await Setup.storedToken(harness, identityID) == nil)
            // The identity stays: signing in with Apple again works and is the same user.
            let again = try await Setup.signIn(client, apple, harness, code: nil)
            #expect(again.user["id"] as? String == session.user["id"] as? String)
            // Replayed: 200 again, and it does what the original did, nothing more.
            let replay = try await Self.notify(
                client,
                try apple.notification("consent-revoked", subject: "apple-1", now: now)
            )
            #expect(replay.status == .ok)
        }
    }

    @Test func accountDeleteRemovesTheIdentityAndAnAppleOnlyUser() async throws {
        try await Setup.withApple { client, apple, harness in
            let session = try await Setup.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            let userID = try #require(session.user["id"] as? String)
            let body = try apple.notification("account-delete", subject: "apple-1", now: harness.clock.now())
            #expect(try await Self.notify(client, body).status == .ok)
            let admin = try await harness.server.serviceRoleToken()
            #expect(try await client.get("/admin/users/\(userID)", bearer: admin).status == .notFound)
            #expect(try await Self.refresh(client, session).status == .badRequest)
            // Apple deleted the account itself: nothing is queued to revoke.
            #expect(try await harness.server.deliverAppleRevocations() == 0)
            #expect(apple.revocations.isEmpty)
            // Replayed: nothing left to do, still 200 (Apple retries anything else).
            #expect(try await Self.notify(client, body).status == .ok)
        }
    }

    @Test func accountDeleteKeepsAUserWithAPassword() async throws {
        try await Setup.withApple { client, apple, harness in
            let owner = try await client.confirmedSession(email: "grace@example.com")
            let bearer = try #require(owner.string("access_token"))
            let linked = try await Setup.signIn(client, apple, harness, subject: "apple-2", code: nil, bearer: bearer)
            #expect(linked.status == .ok, "\(linked.text)")
            let appleSession = try await Setup.signIn(client, apple, harness, subject: "apple-2", code: nil)
            #expect(appleSession.user["id"] as? String == owner.user["id"] as? String)
            let body = try apple.notification("account-delete", subject: "apple-2", now: harness.clock.now())
            #expect(try await Self.notify(client, body).status == .ok)
            let user = try await client.get("/user", bearer: bearer)
            #expect(user.status == .ok, "\(user.text)")
            #expect(IDTokenTests.identities(user).allSatisfy { $0["provider"] as? String != "apple" })
            #expect(try await Self.refresh(client, appleSession).errorCode == "refresh_token_not_found")
            #expect(try await Self.refresh(client, owner).status == .ok)
        }
    }

    @Test func accountDeleteKeepsAPasswordlessUserWithAConfirmedAddress() async throws {
        // Issue 31, finding 10: a user who signs in by e-mailed code and linked Apple is not
        // "Apple only"; only the Apple identity goes.
        try await Setup.withApple { client, apple, harness in
            _ = try await client.post("/otp", #"{"email":"grace@example.com"}"#)
            let code = try await client.waitForCode(to: "grace@example.com")
            let owner = try await client.post(
                "/verify",
                #"{"type":"email","email":"grace@example.com","token":"\#(code)"}"#
            )
            let bearer = try #require(owner.string("access_token"))
            let linked = try await Setup.signIn(client, apple, harness, subject: "apple-3", code: nil, bearer: bearer)
            #expect(linked.status == .ok, "\(linked.text)")
            let body = try apple.notification("account-delete", subject: "apple-3", now: harness.clock.now())
            #expect(try await Self.notify(client, body).status == .ok)
            let user = try await client.get("/user", bearer: bearer)
            #expect(user.status == .ok, "the user stays: \(user.text)")
            #expect(IDTokenTests.identities(user).allSatisfy { $0["provider"] as? String != "apple" })
            // And still signs in by code.
            harness.clock.advance(by: 61)
            try await client.waitForMail(
                to: "grace@example.com",
                subject: "A new way to sign in was added to your account"
            )
            let mailed = await client.mailCount(to: "grace@example.com")
            _ = try await client.post("/otp", #"{"email":"grace@example.com"}"#)
            let again = try await client.waitForCode(to: "grace@example.com", after: mailed)
            let signedIn = try await client.post(
                "/verify",
                #"{"type":"email","email":"grace@example.com","token":"\#(again)"}"#
            )
            #expect(signedIn.status == .ok)
        }
    }

    @Test func accountDeleteWeighsTheAddressAppleVouchedFor() async throws {
        try await Setup.withApple { client, apple, harness in
            // Apple's private relay stops with the Apple account: that user had no other way in.
            let relayed = try await Setup.signIn(
                client,
                apple,
                harness,
                subject: "apple-relay",
                code: nil,
                email: "x1y2@privaterelay.appleid.com"
            )
            // A real address Apple vouched for still signs in by code: that user stays.
            let shared = try await Setup.signIn(
                client,
                apple,
                harness,
                subject: "apple-shared",
                code: nil,
                email: "lin@example.com"
            )
            for subject in ["apple-relay", "apple-shared"] {
                let body = try apple.notification("account-delete", subject: subject, now: harness.clock.now())
                #expect(try await Self.notify(client, body).status == .ok)
            }
            let admin = try await harness.server.serviceRoleToken()
            let gone = try await client.get("/admin/users/\(relayed.user["id"] as? String ?? "")", bearer: admin)
            #expect(gone.status == .notFound)
            let kept = try await client.get("/admin/users/\(shared.user["id"] as? String ?? "")", bearer: admin)
            #expect(kept.status == .ok)
            #expect(IDTokenTests.identities(kept).allSatisfy { $0["provider"] as? String != "apple" })
        }
    }

    @Test func aReplayedNotificationChangesNothing() async throws {
        // Issue 31, finding 14: the same consent-revoked posted again within the hour must not end
        // the session the user opened after the first.
        try await Setup.withApple { client, apple, harness in
            let first = try await Setup.signIn(client, apple, harness, code: nil)
            let body = try apple.notification("consent-revoked", subject: "apple-1", now: harness.clock.now())
            #expect(try await Self.notify(client, body).status == .ok)
            #expect(try await Self.refresh(client, first).errorCode == "refresh_token_not_found")
            harness.clock.advance(by: 300)
            let second = try await Setup.signIn(client, apple, harness, code: nil)
            let replay = try await Self.notify(client, body)
            #expect(replay.status == .ok, "a replay answers 200")
            #expect(try await Self.refresh(client, second).status == .ok, "and changes nothing")
            // A new notification (another jti) still applies.
            let fresh = try apple.notification("consent-revoked", subject: "apple-1", now: harness.clock.now())
            #expect(try await Self.notify(client, fresh).status == .ok)
            #expect(try await Self.refresh(client, second).errorCode == "refresh_token_not_found")
        }
    }

    @Test func emailEventsSetTheFlagInOrder() async throws {
        try await Setup.withApple { client, apple, harness in
            let session = try await Setup.signIn(client, apple, harness, code: nil)
            let bearer = try #require(session.string("access_token"))
            let now = harness.clock.now()
            func flag() async throws -> Bool? {
                let user = try await client.get("/user", bearer: bearer)
                let identity = IDTokenTests.identities(user).first { $0["provider"] as? String == "apple" }
                return (identity?["identity_data"] as? [String: Any])?["email_disabled"] as? Bool
            }
            let disabled = try apple.notification(
                "email-disabled",
                subject: "apple-1",
                now: now,
                eventTime: now.timeIntervalSince1970 - 60
            )
            #expect(try await Self.notify(client, disabled).status == .ok)
            #expect(try await flag() == true)
            let enabled = try apple.notification(
                "email-enabled",
                subject: "apple-1",
                now: now,
                eventTime: now.timeIntervalSince1970 - 30
            )
            #expect(try await Self.notify(client, enabled).status == .ok)
            #expect(try await flag() == false)
            // The older event replayed changes nothing.
            #expect(try await Self.notify(client, disabled).status == .ok)
            #expect(try await flag() == false)
            // The session lives on.
            #expect(try await client.get("/user", bearer: bearer).status == .ok)
            // An event for an Apple account nobody has is accepted and ignored.
            let unknown = try apple.notification("account-delete", subject: "nobody", now: now)
            #expect(try await Self.notify(client, unknown).status == .ok)
        }
    }

    @Test func forgedForeignStaleAndMalformedNotificationsAreRefused() async throws {
        try await Setup.withApple { client, apple, harness in
            let session = try await Setup.signIn(client, apple, harness, code: nil)
            let userID = try #require(session.user["id"] as? String)
            let now = harness.clock.now()
            let seconds = Int(now.timeIntervalSince1970)
            let cases: [(String, String)] = [
                (
                    "forged",
                    try apple.notification(
                        "account-delete",
                        subject: "apple-1",
                        now: now,
                        key: try await FakeProvider.Key.make(kid: apple.provider.currentKey.kid)
                    )
                ),
                (
                    "unknown key",
                    try apple.notification(
                        "account-delete",
                        subject: "apple-1",
                        now: now,
                        key: try await FakeProvider.Key.make()
                    )
                ),
                (
                    "other app",
                    try apple.notification(
                        "account-delete",
                        subject: "apple-1",
                        now: now,
                        claims: ["aud": "com.evil.app"]
                    )
                ),
                (
                    "other issuer",
                    try apple.notification(
                        "account-delete",
                        subject: "apple-1",
                        now: now,
                        claims: ["iss": "https://evil.example"]
                    )
                ),
                (
                    "stale",
                    try apple.notification(
                        "account-delete",
                        subject: "apple-1",
                        now: now,
                        claims: ["iat": seconds - 7200]
                    )
                ),
                (
                    "future",
                    try apple.notification(
                        "account-delete",
                        subject: "apple-1",
                        now: now,
                        claims: ["iat": seconds + 3600]
                    )
                ),
                (
                    "no iat",
                    try apple.notification("account-delete", subject: "apple-1", now: now, claims: ["iat": NSNull()])
                ),
                ("unknown event", try apple.notification("account-steal", subject: "apple-1", now: now)),
                (
                    "no events",
                    try apple.notification("account-delete", subject: "apple-1", now: now, claims: ["events": NSNull()])
                ),
                (
                    "events not JSON",
                    try apple.notification("account-delete", subject: "apple-1", now: now, claims: ["events": "{oops"])
                ),
                ("not a JWT", #"{"payload":"a.b"}"#),
                ("empty payload", #"{"payload":""}"#),
            ]
            for (name, body) in cases {
                let reply = try await Self.notify(client, body)
                #expect(reply.status == .badRequest, "\(name): \(reply.text)")
                #expect(reply.errorCode == "notification_invalid", "\(name): \(reply.text)")
            }
            #expect(try await Self.notify(client, #"{"payload":5}"#).errorCode == "validation_failed")
            #expect(try await Self.notify(client, "{").errorCode == "bad_json")
            let huge = #"{"payload":""# + String(repeating: "a", count: 20_000) + #""}"#
            #expect(try await Self.notify(client, huge).status == .contentTooLarge)
            // None of them touched the user.
            let admin = try await harness.server.serviceRoleToken()
            #expect(try await client.get("/admin/users/\(userID)", bearer: admin).status == .ok)
            #expect(try await Self.refresh(client, session).status == .ok)
        }
    }

    @Test func withoutAppleTheRouteRefuses() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let reply = try await Self.notify(client, #"{"payload":"x.y.z"}"#)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "provider_disabled")
        }
    }
}
