import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 31, finding 1 (`security.md` SA-2): an unverified factor is verified only from the
/// session that enrolled it, and the first verified factor takes every other unverified one
/// with it; over HTTP, in the attacker's order, racing, and for the owner.
@Suite("A factor planted with the password")
struct FactorTakeoverTests {
    static let owner = "ada@example.com"

    @Test func aFactorPlantedBeforeTheOwnersOwnCannotRaiseTheAttacker() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let ownerSession = try await client.confirmedSession(email: Self.owner)
            // The attacker knows the password and plants a factor while the owner has none.
            let attacker = try await client.signIn(Self.owner)
            let planted = try await client.enroll(attacker.string("access_token"), name: "attacker")
            #expect(planted.reply.status == .ok)
            // The owner enrols and verifies their own.
            let own = try await client.enroll(ownerSession.string("access_token"), name: "phone")
            let raised = try await client.challengeAndVerify(
                own.id,
                code: own.app.code(at: clock.now()),
                bearer: ownerSession.string("access_token")
            )
            #expect(raised.status == .ok)
            // The attacker signs in again (AAL1) and tries the planted factor's own code.
            let again = try await client.signIn(Self.owner).string("access_token")
            let challenge = try await client.challenge(planted.id, bearer: again)
            #expect(challenge.status == .notFound)
            let verify = try await client.verify(
                planted.id,
                challenge: UUID().uuidString,
                code: planted.app.code(at: clock.now()),
                bearer: again
            )
            #expect(verify.status == .notFound)
            #expect(accessClaims(again)["aal"] as? String == "aal1")
            // And so cannot remove the owner's factor or change the password.
            let removal = try await client.send(.delete, "/factors/\(own.id)", bearer: again)
            #expect(removal.errorCode == "insufficient_aal")
            let password = try await client.send(.put, "/user", json: #"{"password":"attacker phrase"}"#, bearer: again)
            #expect(password.errorCode == "insufficient_aal")
            let user = try await client.get("/user", bearer: raised.string("access_token"))
            let factors = user["factors"] as? [[String: Any]] ?? []
            #expect(factors.map { $0["id"] as? String } == [own.id], "the planted factor is gone")
        }
    }

    @Test func anUnverifiedFactorIsVerifiedOnlyFromItsEnrollingSession() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let enrolling = try await client.confirmedSession(email: Self.owner)
            let factor = try await client.enroll(enrolling.string("access_token"))
            // Even while the enrolling session lives, another session of the user cannot verify it.
            let other = try await client.signIn(Self.owner).string("access_token")
            let challenge = try await client.challenge(factor.id, bearer: other)
            #expect(challenge.status == .notFound && challenge.text.contains("another session"))
            // A challenge made by the enrolling session, answered from the other one, from the
            // same client address.
            let issued = try await client.challenge(factor.id, bearer: enrolling.string("access_token"))
            let stolen = try await client.verify(
                factor.id,
                challenge: issued.string("id") ?? "",
                code: factor.app.code(at: clock.now()),
                bearer: other
            )
            #expect(stolen.status == .notFound)
            // The owner, in the enrolling session, verifies it.
            let verified = try await client.verify(
                factor.id,
                challenge: issued.string("id") ?? "",
                code: factor.app.code(at: clock.now()),
                bearer: enrolling.string("access_token")
            )
            #expect(verified.status == .ok, "\(verified.text)")
            #expect(accessClaims(verified.string("access_token"))["aal"] as? String == "aal2")
        }
    }

    @Test func racingFirstVerificationsLeaveOneFactor() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let owner = try await client.confirmedSession(email: Self.owner)
            let attacker = try await client.signIn(Self.owner)
            let planted = try await client.enroll(attacker.string("access_token"), name: "attacker")
            let own = try await client.enroll(owner.string("access_token"), name: "phone")
            let plantedChallenge = try await client.challenge(planted.id, bearer: attacker.string("access_token"))
            let ownChallenge = try await client.challenge(own.id, bearer: owner.string("access_token"))
            let attempts: [(String, String, String, String)] = [
                (
                    planted.id, plantedChallenge.string("id") ?? "", planted.app.code(at: clock.now()),
                    attacker.string("access_token") ?? ""
                ),
                (
                    own.id, ownChallenge.string("id") ?? "", own.app.code(at: clock.now()),
                    owner.string("access_token") ?? ""
                ),
            ]
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (factor, challenge, code, bearer) in attempts {
                    group.addTask {
                        try await client.verify(factor, challenge: challenge, code: code, bearer: bearer).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            let user = try #require(try await harness.server.storage.read { try await $0.user(email: Self.owner) })
            #expect(user.factors.count == 1 && user.factors.allSatisfy(\.isVerified), "one verified factor, no other")
        }
    }
}
