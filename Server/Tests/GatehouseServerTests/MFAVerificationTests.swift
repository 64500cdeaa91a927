import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `POST /factors/{id}/challenge` and `/verify` over HTTP, with codes from an independent app.
@Suite("MFA challenge and verify")
struct MFAVerificationTests {
    @Test func verifyRaisesTheSessionToAAL2AndItSurvivesRefresh() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, clock, session, token, factor) = (
                scene.client, scene.clock, scene.session, scene.token, scene.factor
            )
            #expect(accessClaims(token)["aal"] as? String == "aal1")
            let challenge = try await client.challenge(factor.id, bearer: token)
            #expect(challenge.status == .ok)
            #expect(challenge.string("type") == "totp")
            #expect(challenge["expires_at"] as? Int == Int(clock.now().timeIntervalSince1970) + 300)
            let challengeID = try #require(challenge.string("id"))

            let verified = try await client.verify(
                factor.id,
                challenge: challengeID,
                code: factor.app.code(at: clock.now()),
                bearer: token
            )
            #expect(verified.status == .ok)
            let raised = verified.string("access_token")
            #expect(accessClaims(raised)["aal"] as? String == "aal2")
            #expect(amrMethods(raised).first == "totp")
            #expect(amrMethods(raised).count == 2, "the first method stays, after the code")
            #expect(accessClaims(raised)["session_id"] as? String == accessClaims(token)["session_id"] as? String)
            let refreshToken = try #require(verified.string("refresh_token"))
            #expect(refreshToken != session.string("refresh_token"))
            #expect(verified.string("token_type") == "bearer" && verified["expires_in"] as? Int == 3600)

            // The session list (issue 18) reports the level too.
            let listed = try await client.get("/user/sessions", bearer: raised)
            let object = try JSONSerialization.jsonObject(with: Data(listed.text.utf8))
            let rows =
                (object as? [[String: Any]]) ?? ((object as? [String: Any])?["sessions"] as? [[String: Any]]) ?? []
            #expect(rows.first { $0["current"] as? Bool == true }?["aal"] as? String == "aal2")

            clock.advance(by: 60)
            let refreshed = try await client.refresh(refreshToken)
            #expect(refreshed.status == .ok)
            #expect(accessClaims(refreshed.string("access_token"))["aal"] as? String == "aal2")
            #expect(amrMethods(refreshed.string("access_token")).first == "totp")
            let again = try await client.refresh(try #require(refreshed.string("refresh_token")))
            #expect(accessClaims(again.string("access_token"))["aal"] as? String == "aal2")
        }
    }

    @Test func theSessionsAAL1RefreshTokenNeverYieldsTheAAL2Session() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, session, factor) = (scene.client, scene.session, scene.factor)
            let verified = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: scene.clock.now()),
                bearer: scene.token
            )
            #expect(verified.status == .ok)
            let old = try await client.refresh(try #require(session.string("refresh_token")))
            #expect(old.status == .badRequest)
            #expect(old.string("access_token") == nil)
        }
    }

    @Test func wrongCodesFailAndAChallengeDiesAfterFive() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            let challengeID = try #require(try await client.challenge(factor.id, bearer: token).string("id"))
            let right = factor.app.code(at: clock.now())
            let wrong = right == "000000" ? "000001" : "000000"
            for _ in 0..<5 {
                let reply = try await client.verify(factor.id, challenge: challengeID, code: wrong, bearer: token)
                #expect(reply.status == .unprocessableContent)
                #expect(reply.errorCode == "mfa_verification_failed")
            }
            let dead = try await client.verify(factor.id, challenge: challengeID, code: right, bearer: token)
            #expect(dead.status == .unprocessableContent)
            #expect(dead.errorCode == "mfa_challenge_expired")
            // A new challenge takes the right code.
            let fresh = try await client.challengeAndVerify(factor.id, code: right, bearer: token)
            #expect(fresh.status == .ok)
        }
    }

    @Test func concurrentWrongCodesOnOneChallengeAreComparedAtMostFiveTimes() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            let challengeID = try #require(try await client.challenge(factor.id, bearer: token).string("id"))
            let right = factor.app.code(at: clock.now())
            let codes = (0..<40).map { String(format: "%06d", (Int(right)! + 1 + $0) % 1_000_000) }
            let replies = try await withThrowingTaskGroup(of: String?.self) { group in
                for code in codes {
                    group.addTask {
                        try await client.verify(factor.id, challenge: challengeID, code: code, bearer: token).errorCode
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.filter { $0 == "mfa_verification_failed" }.count == 5)
            #expect(replies.filter { $0 == "mfa_challenge_expired" || $0 == "mfa_factor_not_found" }.count == 35)
        }
    }

    @Test func anExpiredChallengeIsRefused() async throws {
        try await Harness.make().withVerifiedFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            let challengeID = try #require(try await client.challenge(factor.id, bearer: token).string("id"))
            clock.advance(by: 301)
            let late = try await client.verify(
                factor.id,
                challenge: challengeID,
                code: factor.app.code(at: clock.now()),
                bearer: token
            )
            #expect(late.status == .unprocessableContent)
            #expect(late.errorCode == "mfa_challenge_expired")
        }
    }

    @Test func anAcceptedCodeIsRefusedForTheRestOfItsWindowAndOlderOnesToo() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            let code = factor.app.code(at: clock.now())
            let first = try await client.challengeAndVerify(factor.id, code: code, bearer: token)
            #expect(first.status == .ok)
            let raised = first.string("access_token")
            clock.advance(by: 10)
            let replay = try await client.challengeAndVerify(factor.id, code: code, bearer: raised)
            #expect(replay.status == .unprocessableContent)
            #expect(replay.errorCode == "mfa_verification_failed")
            let older = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: clock.now(), steps: -1),
                bearer: raised
            )
            #expect(older.status == .unprocessableContent, "a code before the accepted one")
            clock.advance(by: 30)
            let next = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: clock.now()),
                bearer: raised
            )
            #expect(next.status == .ok)
        }
    }

    @Test func oneStepEitherSideIsAcceptedTwoAreNot() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            let now = clock.now()
            let tooOld = factor.app.code(at: now, steps: -2)
            if ![-1, 0, 1].contains(where: { factor.app.code(at: now, steps: $0) == tooOld }) {
                let reply = try await client.challengeAndVerify(factor.id, code: tooOld, bearer: token)
                #expect(reply.errorCode == "mfa_verification_failed")
            }
            let behind = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: now, steps: -1),
                bearer: token
            )
            #expect(behind.status == .ok, "the app's clock 30 s behind")
            let ahead = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: now, steps: 1),
                bearer: behind.string("access_token")
            )
            #expect(ahead.status == .ok, "the app's clock 30 s ahead")
        }
    }

    @Test func aChallengeAnswersOneVerifyFromTheAddressThatCreatedIt() async throws {
        let harness = try await Harness.make {
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
        }
        try await harness.withEnrolledFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            let home = ["X-Forwarded-For": "203.0.113.7"]
            let challengeID = try #require(
                try await client.challenge(factor.id, bearer: token, headers: home).string("id")
            )
            let code = factor.app.code(at: clock.now())
            let elsewhere = try await client.verify(
                factor.id,
                challenge: challengeID,
                code: code,
                bearer: token,
                headers: ["X-Forwarded-For": "198.51.100.9"]
            )
            #expect(elsewhere.status == .unprocessableContent)
            #expect(elsewhere.errorCode == "mfa_ip_address_mismatch")
            let ok = try await client.verify(
                factor.id,
                challenge: challengeID,
                code: code,
                bearer: token,
                headers: home
            )
            #expect(ok.status == .ok)
            clock.advance(by: 30)
            let reused = try await client.verify(
                factor.id,
                challenge: challengeID,
                code: factor.app.code(at: clock.now()),
                bearer: ok.string("access_token"),
                headers: home
            )
            #expect(reused.status == .notFound, "used once")
            #expect(reused.errorCode == "mfa_factor_not_found")
        }
    }

    @Test func racingVerifiesOfOneCodeSucceedOnce() async throws {
        try await Harness.make().withEnrolledFactor { scene in
            let (client, clock, token, factor) = (scene.client, scene.clock, scene.token, scene.factor)
            var challenges: [String] = []
            for _ in 0..<12 {
                challenges.append(try #require(try await client.challenge(factor.id, bearer: token).string("id")))
            }
            let code = factor.app.code(at: clock.now())
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for challenge in challenges + challenges {
                    group.addTask {
                        try await client.verify(factor.id, challenge: challenge, code: code, bearer: token).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(!statuses.contains { $0.code >= 500 })
        }
    }

    @Test func anotherUsersFactorOrChallengeIsNotFound() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let (victim, victimFactor) = try await client.userWithFactor("victim@example.com", clock: clock)
            let victimChallenge = try #require(
                try await client.challenge(victimFactor.id, bearer: victim.string("access_token")).string("id")
            )
            let attacker = try await client.confirmedSession(email: "mallory@example.com").string("access_token")
            let own = try await client.enroll(attacker)
            #expect(try await client.challenge(victimFactor.id, bearer: attacker).errorCode == "mfa_factor_not_found")
            let code = victimFactor.app.code(at: clock.now())
            let crossed = try await client.verify(
                victimFactor.id,
                challenge: victimChallenge,
                code: code,
                bearer: attacker
            )
            #expect(crossed.status == .notFound && crossed.errorCode == "mfa_factor_not_found")
            // The victim's challenge against the attacker's own factor.
            let mixed = try await client.verify(own.id, challenge: victimChallenge, code: code, bearer: attacker)
            #expect(mixed.status == .notFound)
            let removal = try await client.send(.delete, "/factors/\(victimFactor.id)", bearer: attacker)
            #expect(removal.status == .notFound && removal.errorCode == "mfa_factor_not_found")
            for path in ["/factors/not-a-uuid/challenge", "/factors/\(UUID())/challenge"] {
                let reply = try await client.post(path, "{}", bearer: attacker)
                #expect(reply.status == .notFound && reply.errorCode == "mfa_factor_not_found", "\(path)")
            }
            let ownChallenge = try #require(try await client.challenge(own.id, bearer: attacker).string("id"))
            for body in [
                #"{"challenge_id":"\#(ownChallenge)","code":"\#(String(repeating: "1", count: 100_000))"}"#,
                #"{"challenge_id":"\#(ownChallenge)","code":12}"#, #"{"challenge_id":"nope","code":"123456"}"#, "{}",
            ] {
                let reply = try await client.post("/factors/\(own.id)/verify", body, bearer: attacker)
                #expect(reply.status.code >= 400 && reply.status.code < 500, "\(body.prefix(40))")
            }
            let guest = try await client.post("/signup", "{}").string("access_token")
            #expect(try await client.challenge(own.id, bearer: guest).errorCode == "no_authorization")
        }
    }

    @Test func verifyEndsTheUsersOtherSessionsBelowAAL2() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let first = try await client.confirmedSession(email: "ada@example.com")
            let second = try await client.signIn("ada@example.com")
            let factor = try await client.enroll(first.string("access_token"))
            let raised = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: clock.now()),
                bearer: first.string("access_token")
            )
            #expect(raised.status == .ok)
            let ended = try await client.get("/user", bearer: second.string("access_token"))
            #expect(ended.status == .forbidden && ended.errorCode == "session_not_found")
            #expect(try await client.refresh(try #require(second.string("refresh_token"))).status == .badRequest)

            // A later AAL1 sign-in raised to AAL2 leaves the first AAL2 session alone.
            clock.advance(by: 30)
            let third = try await client.signIn("ada@example.com")
            let thirdRaised = try await client.challengeAndVerify(
                factor.id,
                code: factor.app.code(at: clock.now()),
                bearer: third.string("access_token")
            )
            #expect(thirdRaised.status == .ok)
            #expect(try await client.get("/user", bearer: raised.string("access_token")).status == .ok)
        }
    }

    @Test func challengesAndVerifiesAreLimitedPerClient() async throws {
        let harness = try await Harness.make { $0.rateLimits.mfa = 3 }
        try await harness.withEnrolledFactor { scene in
            let (client, token, factor) = (scene.client, scene.token, scene.factor)
            for _ in 0..<3 { #expect(try await client.challenge(factor.id, bearer: token).status == .ok) }
            let limited = try await client.challenge(factor.id, bearer: token)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "over_request_rate_limit")
            #expect(limited.header("Retry-After") != nil)
            let verify = try await client.verify(factor.id, challenge: UUID().uuidString, code: "123456", bearer: token)
            #expect(verify.status == .tooManyRequests)
        }
    }

    @Test func challengesAndVerifiesAreLimitedPerUserOnEachNetwork() async throws {
        let harness = try await Harness.make {
            $0.rateLimits.mfaPerUser = 4
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
        }
        try await harness.withEnrolledFactor { scene in
            let (client, token, factor) = (scene.client, scene.token, scene.factor)
            for _ in 0..<4 {
                let reply = try await client.challenge(
                    factor.id,
                    bearer: token,
                    headers: ["X-Forwarded-For": "203.0.113.7"]
                )
                #expect(reply.status == .ok)
            }
            let limited = try await client.challenge(
                factor.id,
                bearer: token,
                headers: ["X-Forwarded-For": "203.0.113.7"]
            )
            #expect(limited.status == .tooManyRequests)
            // Another network (the owner's) keeps its own share.
            let elsewhere = try await client.challenge(
                factor.id,
                bearer: token,
                headers: ["X-Forwarded-For": "198.51.100.1"]
            )
            #expect(elsewhere.status == .ok)
            // Another user is not held up.
            let other = try await client.confirmedSession(email: "grace@example.com").string("access_token")
            let otherFactor = try await client.enroll(other)
            #expect(try await client.challenge(otherFactor.id, bearer: other).status == .ok)
        }
    }
}
