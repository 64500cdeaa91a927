import Foundation
import GatehouseFlows
import GatehouseServer
import HTTPTypes
import Testing

@Suite("Anonymous users, PUT /user and self-service deletion")
struct AnonymousAndUserTests {
    @Test func anonymousSignUpCarriesTheDocumentedClaims() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            #expect(guest.status == .ok)
            #expect(guest.user["is_anonymous"] as? Bool == true)
            let claims = accessClaims(guest.string("access_token"))
            for key in [
                "aud", "exp", "iat", "iss", "sub", "email", "phone", "role", "aal", "amr", "session_id", "is_anonymous",
                "app_metadata", "user_metadata",
            ] {
                #expect(claims[key] != nil, "claim \(key)")
            }
            #expect(claims["aud"] as? String == "authenticated")
            #expect(claims["is_anonymous"] as? Bool == true)
            #expect(((claims["amr"] as? [[String: Any]])?.first?["method"]) as? String == "anonymous")
        }
    }

    @Test func anonymousUpgradeWithConfirmationKeepsTheID() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            let id = guest.user["id"] as? String
            let update = try await client.send(
                .put,
                "/user",
                json: #"{"email":"ada@example.com","password":"correct horse battery"}"#,
                bearer: guest.string("access_token")
            )
            #expect(update.status == .ok)
            #expect(update["is_anonymous"] as? Bool == true, "still a guest until the address is confirmed")
            #expect(update["new_email"] as? String == "ada@example.com")
            #expect(try await client.signIn("ada@example.com").status != .ok, "no password sign-in before proof")
            let code = try await client.waitForCode(to: "ada@example.com")
            let wrongType = try await client.post(
                "/verify",
                #"{"type":"signup","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(wrongType.errorCode == "otp_expired", "a guest's address is confirmed as an address change")
            let verified = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(verified.user["id"] as? String == id)
            #expect(verified.user["is_anonymous"] as? Bool == false)
            #expect(verified.user["email"] as? String == "ada@example.com")
            #expect(try await client.signIn("ada@example.com").user["id"] as? String == id)
            // The new session says is_anonymous: false; the guest's earlier sessions ended.
            #expect(accessClaims(verified.string("access_token"))["is_anonymous"] as? Bool == false)
            let refreshed = try await client.refresh(try #require(guest.string("refresh_token")))
            #expect(refreshed.errorCode == "refresh_token_not_found")
        }
    }

    @Test func anonymousUpgradeWithAutoconfirmIsImmediate() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            let update = try await client.send(
                .put,
                "/user",
                json: #"{"email":"ada@example.com","password":"correct horse battery"}"#,
                bearer: guest.string("access_token")
            )
            #expect(update["is_anonymous"] as? Bool == false)
            #expect(update.string("id") == guest.user["id"] as? String)
        }
    }

    @Test func anAddressTakenByAnotherUserIsEmailExists() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let guest = try await client.post("/signup", "{}")
            let update = try await client.send(
                .put,
                "/user",
                json: #"{"email":"ada@example.com"}"#,
                bearer: guest.string("access_token")
            )
            #expect(update.status == .unprocessableContent)
            #expect(update.errorCode == "email_exists")
        }
    }

    @Test func metadataMergesAndPasswordChangeRules() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = session.string("access_token")
            _ = try await client.send(.put, "/user", json: #"{"data":{"a":1}}"#, bearer: token)
            let merged = try await client.send(.put, "/user", json: #"{"data":{"b":2}}"#, bearer: token)
            #expect((merged["user_metadata"] as? [String: Any])?.keys.sorted() == ["a", "b"])
            let same = try await client.send(
                .put,
                "/user",
                json: #"{"password":"correct horse battery"}"#,
                bearer: token
            )
            #expect(same.errorCode == "same_password")
            let changed = try await client.send(
                .put,
                "/user",
                json: #"{"password":"a brand new phrase"}"#,
                bearer: token
            )
            #expect(changed.status == .ok)
            #expect(try await client.signIn("ada@example.com", "a brand new phrase").status == .ok)

            clock.advance(by: 25 * 3600)
            let fresh = try await client.refresh(try #require(session.string("refresh_token")))
            let stale = try await client.send(
                .put,
                "/user",
                json: #"{"password":"yet another phrase"}"#,
                bearer: fresh.string("access_token")
            )
            #expect(stale.errorCode == "reauthentication_needed", "a session older than 24 h needs proof")
            let mailed = await client.mailCount(to: "ada@example.com")
            #expect(try await client.get("/reauthenticate", bearer: fresh.string("access_token")).status == .ok)
            let nonce = try await client.waitForCode(to: "ada@example.com", after: mailed)
            let proven = try await client.send(
                .put,
                "/user",
                json: #"{"password":"yet another phrase","nonce":"\#(nonce)"}"#,
                bearer: fresh.string("access_token")
            )
            #expect(proven.status == .ok)
        }
    }

    @Test func selfServiceDeletionRemovesEverythingAtOnce() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let other = try await client.signIn("ada@example.com")
            let deleted = try await client.send(.delete, "/user", bearer: session.string("access_token"))
            #expect(deleted.status == .ok)
            let after = try await client.get("/user", bearer: other.string("access_token"))
            #expect(after.status == .forbidden)
            #expect(
                try await client.refresh(try #require(other.string("refresh_token"))).errorCode
                    == "refresh_token_not_found"
            )
            #expect(try await client.signIn("ada@example.com").errorCode == "invalid_credentials")
        }
        #expect(!(try await harness.databaseText()).contains("ada@example.com"))
    }
}
