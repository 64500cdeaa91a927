import Foundation
import GatehouseServer
import GatehouseServerSupport
import HTTPTypes
import Testing

/// What a user with a verified factor may do at AAL1, unenrolment, and the admin's factor routes.
@Suite("MFA account rules")
struct MFAAccountRuleTests {
    @Test func passwordAndEmailChangesNeedAAL2() async throws {
        try await Harness.make().withVerifiedFactor { scene in
            let (client, aal2) = (scene.client, scene.session)
            let aal1 = try await client.signIn("ada@example.com").string("access_token")
            for body in [#"{"password":"another good passphrase"}"#, #"{"email":"ada2@example.com"}"#] {
                let refused = try await client.send(.put, "/user", json: body, bearer: aal1)
                #expect(refused.status == .unauthorized, "\(body)")
                #expect(refused.errorCode == "insufficient_aal")
            }
            let metadata = try await client.send(.put, "/user", json: #"{"data":{"theme":"dark"}}"#, bearer: aal1)
            #expect(metadata.status == .ok, "other changes stay open at AAL1")
            let deletion = try await client.send(.delete, "/user", bearer: aal1)
            #expect(deletion.status == .unauthorized && deletion.errorCode == "insufficient_aal")

            let changed = try await client.send(
                .put,
                "/user",
                json: #"{"password":"another good passphrase"}"#,
                bearer: aal2.string("access_token")
            )
            #expect(changed.status == .ok)
        }
    }

    @Test func aUserWithoutAVerifiedFactorChangesThePasswordAtAAL1() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let changed = try await scene.client.send(
                .put,
                "/user",
                json: #"{"password":"another good passphrase"}"#,
                bearer: scene.token
            )
            #expect(changed.status == .ok, "an unverified factor raises nothing")
        }
    }

    @Test func unenrolmentOfAVerifiedFactorNeedsAAL2AndDropsItsSessionsToAAL1() async throws {
        try await Harness.make().withVerifiedFactor { scene in
            let (client, aal2, factor) = (scene.client, scene.session, scene.factor)
            let aal1 = try await client.signIn("ada@example.com").string("access_token")
            let refused = try await client.send(.delete, "/factors/\(factor.id)", bearer: aal1)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "insufficient_aal")

            let pending = try await client.enroll(aal2.string("access_token"), name: "spare")
            let unverifiedRemoval = try await client.send(.delete, "/factors/\(pending.id)", bearer: aal1)
            #expect(unverifiedRemoval.errorCode == "insufficient_aal", "an MFA user's factors change only at AAL2")
            let pendingRemoval = try await client.send(
                .delete,
                "/factors/\(pending.id)",
                bearer: aal2.string("access_token")
            )
            #expect(pendingRemoval.string("id") == pending.id)

            let removed = try await client.send(.delete, "/factors/\(factor.id)", bearer: aal2.string("access_token"))
            #expect(removed.status == .ok)
            #expect(removed.string("id") == factor.id)
            let refreshed = try await client.refresh(try #require(aal2.string("refresh_token")))
            #expect(refreshed.status == .ok)
            #expect(accessClaims(refreshed.string("access_token"))["aal"] as? String == "aal1")
            #expect(!amrMethods(refreshed.string("access_token")).contains("totp"))
            #expect(try await client.get("/user", bearer: aal1)["factors"] == nil)
            let again = try await client.send(.delete, "/factors/\(factor.id)", bearer: aal1)
            #expect(again.status == .notFound)
            let free = try await client.send(
                .put,
                "/user",
                json: #"{"password":"another good passphrase"}"#,
                bearer: aal1
            )
            #expect(free.status == .ok, "no verified factor left")
        }
    }

    @Test func adminsListAndRemoveAUsersFactors() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let (aal2, factor) = try await client.userWithFactor("ada@example.com", clock: clock)
            let userID = try #require(aal2.user["id"] as? String)
            let list = try await client.send(.get, "/admin/users/\(userID)/factors", bearer: admin)
            #expect(list.status == .ok)
            let factors = try #require(try JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
            #expect(factors.count == 1 && factors.first?["id"] as? String == factor.id)
            #expect(factors.first?["status"] as? String == "verified")

            let notAdmin = try await client.send(
                .get,
                "/admin/users/\(userID)/factors",
                bearer: aal2.string("access_token")
            )
            #expect(notAdmin.status == .forbidden)
            let otherUser = try await client.confirmedSession(email: "grace@example.com").user["id"] as? String ?? ""
            let wrongUser = try await client.send(
                .delete,
                "/admin/users/\(otherUser)/factors/\(factor.id)",
                bearer: admin
            )
            #expect(wrongUser.status == .notFound && wrongUser.errorCode == "mfa_factor_not_found")
            #expect(try await client.send(.get, "/admin/users/\(UUID())/factors", bearer: admin).status == .notFound)

            let removed = try await client.send(.delete, "/admin/users/\(userID)/factors/\(factor.id)", bearer: admin)
            #expect(removed.status == .ok)
            #expect(removed.string("id") == factor.id)
            let refreshed = try await client.refresh(try #require(aal2.string("refresh_token")))
            #expect(accessClaims(refreshed.string("access_token"))["aal"] as? String == "aal1")
            let empty = try await client.send(.get, "/admin/users/\(userID)/factors", bearer: admin)
            #expect(empty.text == "[]")
        }
    }

    @Test func everyAccessTokenCarriesAALAndAMR() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let password = try await client.signIn("ada@example.com")
            let guest = try await client.post("/signup", "{}")
            for reply in [signedIn, password, guest] {
                let claims = accessClaims(reply.string("access_token"))
                #expect(claims["aal"] as? String == "aal1")
                #expect(!(claims["amr"] as? [Any] ?? []).isEmpty)
            }
        }
    }
}
