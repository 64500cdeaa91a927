import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// GoTrue's secure e-mail change, a guest's pending address, and the sign-up reply that tells
/// no one who exists (`security.md` OWN-2, OWN-3, OWN-5, PW-8, EN-4).
@Suite("E-mail change and pending addresses")
struct EmailChangeTests {
    @Test func bothSidesCompleteTheChangeTellTheOldAddressAndEndOtherSessions() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let other = try await client.signIn("ada@example.com")
            let before = await client.mailCount(to: "ada@example.com")
            let change = try await client.send(
                .put,
                "/user",
                json: #"{"email":"lovelace@example.com"}"#,
                bearer: session.string("access_token")
            )
            #expect(change.status == .ok)
            #expect(change.string("email") == "ada@example.com")
            let newCode = try await client.waitForCode(to: "lovelace@example.com")
            let currentCode = try await client.waitForCode(
                to: "ada@example.com",
                subject: "Confirm the change of your e-mail address"
            )
            // The current side first (the current address with its code), then the new side.
            let half = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"ada@example.com","token":"\#(currentCode)"}"#
            )
            #expect(half.text.contains(#""code":"200""#))
            let done = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"lovelace@example.com","token":"\#(newCode)"}"#
            )
            #expect(done.status == .ok)
            #expect(done.user["email"] as? String == "lovelace@example.com")
            #expect(done.user["new_email"] == nil || done.user["new_email"] is NSNull)
            #expect(try await client.signIn("lovelace@example.com").status == .ok)
            #expect(try await client.signIn("ada@example.com").errorCode == "invalid_credentials")
            #expect(try await client.refresh(try #require(other.string("refresh_token"))).status != .ok)
            try await client.waitForMail(to: "ada@example.com", subject: "Your e-mail address was changed")
            #expect(await client.mailCount(to: "ada@example.com") == before + 2)
        }
    }

    @Test func anAddressTakenInBetweenIsEmailExists() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            _ = try await client.send(
                .put,
                "/user",
                json: #"{"email":"ada@example.com"}"#,
                bearer: guest.string("access_token")
            )
            let guestCode = try await client.waitForCode(
                to: "ada@example.com",
                subject: "Confirm your new e-mail address"
            )
            // The owner signs up and confirms meanwhile.
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let ownerCode = try await client.waitForCode(to: "ada@example.com", subject: "Confirm your sign-up")
            let owner = try await client.post(
                "/verify",
                #"{"type":"signup","email":"ada@example.com","token":"\#(ownerCode)"}"#
            )
            #expect(owner.status == .ok)
            #expect(owner.user["id"] as? String != guest.user["id"] as? String)
            let late = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"ada@example.com","token":"\#(guestCode)"}"#
            )
            #expect(late.status == .unprocessableContent)
            #expect(late.errorCode == "email_exists")
        }
    }

    @Test func signUpForAConfirmedAddressLooksLikeANewOne() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.confirmedSession(email: "ada@example.com")
            let fresh = try await client.post("/signup", #"{"email":"new@example.com","password":"some other phrase"}"#)
            let taken = try await client.post("/signup", #"{"email":"ada@example.com","password":"some other phrase"}"#)
            #expect(Set(taken.json.keys) == Set(fresh.json.keys))
            let freshIdentities = fresh["identities"] as? [[String: Any]] ?? []
            let takenIdentities = taken["identities"] as? [[String: Any]] ?? []
            #expect(takenIdentities.count == freshIdentities.count)
            #expect(Set(takenIdentities.first?.keys ?? [:].keys) == Set(freshIdentities.first?.keys ?? [:].keys))
        }
    }

    @Test func wrongCurrentPasswordsCountTowardTheAccountLimit() async throws {
        let harness = try await Harness.make { $0.rateLimits.failedPasswordsPerAccount = 3 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            for _ in 0..<3 {
                let wrong = try await client.send(
                    .put,
                    "/user",
                    json: #"{"password":"a brand new phrase","current_password":"not it at all"}"#,
                    bearer: session.string("access_token")
                )
                #expect(wrong.errorCode == "current_password_invalid" || wrong.status == .badRequest)
            }
            #expect(try await client.signIn("ada@example.com").status == .tooManyRequests)
        }
    }

    @Test func sensitiveChangesHaveALimitPerUserAndNetwork() async throws {
        let harness = try await Harness.make {
            $0.rateLimits.userUpdates = 3
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let change: @Sendable (Int, String) async throws -> Reply = { index, network in
                try await client.send(
                    .put,
                    "/user",
                    json: #"{"password":"passphrase number \#(index)"}"#,
                    bearer: session.string("access_token"),
                    headers: ["X-Forwarded-For": network]
                )
            }
            // A thief holding the token spends the budget of the thief's network,
            for index in 0..<3 { #expect(try await change(index, "198.51.100.66").status == .ok) }
            let limited = try await change(3, "198.51.100.66")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.header("Retry-After") != nil)
            // never the owner's, on another network; and metadata alone is no sensitive change.
            #expect(try await change(4, "203.0.113.5").status == .ok)
            let metadata = try await client.send(
                .put,
                "/user",
                json: #"{"data":{"theme":"dark"}}"#,
                bearer: session.string("access_token"),
                headers: ["X-Forwarded-For": "198.51.100.66"]
            )
            #expect(metadata.status == .ok)
        }
    }

    @Test func aPasswordlessUserNeedsARecentSignInToAddOne() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            let code = try await client.waitForCode(to: "ada@example.com")
            let session = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            harness.clock.advance(by: 25 * 3600)
            let fresh = try await client.refresh(try #require(session.string("refresh_token")))
            let add = try await client.send(
                .put,
                "/user",
                json: #"{"password":"a brand new phrase"}"#,
                bearer: fresh.string("access_token")
            )
            #expect(add.errorCode == "reauthentication_needed")
        }
    }

    @Test func aLinkForOneSideRedirectsWithTheMessageAndNoSession() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            try await Self.startAdasChangeToLovelace(client)
            let mail = await client.mailer.sent.last { $0.to == "lovelace@example.com" }
            let token = try #require(
                mail?.body.components(separatedBy: "token=").last?.components(separatedBy: "&").first
            )
            let link = try await client.get("/verify?token=\(token)&type=email_change")
            #expect(link.status == .seeOther)
            let location = link.header("Location") ?? ""
            #expect(location.contains("#message=Confirmation"))
            #expect(!location.contains("access_token"))
        }
    }

    @Test func aResendRenewsTheCodesOfBothAddresses() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            try await Self.startAdasChangeToLovelace(client)
            let subject = "Confirm the change of your e-mail address"
            _ = try await client.waitForCode(to: "ada@example.com", subject: subject)
            harness.clock.advance(by: 61)
            _ = try await client.post("/resend", #"{"type":"email_change","email":"ada@example.com"}"#)
            _ = try await client.waitForMail(to: "lovelace@example.com", count: 2)
            #expect(await client.mailer.sent.filter { $0.subject == subject }.count == 2)
        }
    }

    /// ada@example.com signs up, confirms and asks to move to lovelace@example.com; returns once
    /// the new address's code is mailed.
    static func startAdasChangeToLovelace(_ client: Client) async throws {
        let session = try await client.confirmedSession(email: "ada@example.com")
        let change = try await client.send(
            .put,
            "/user",
            json: #"{"email":"lovelace@example.com"}"#,
            bearer: session.string("access_token")
        )
        #expect(change.status == .ok)
        _ = try await client.waitForCode(to: "lovelace@example.com")
    }
}
