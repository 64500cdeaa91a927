import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 31, finding 6 (`security.md` SA-4, SA-5): someone who knows the password spends their
/// own network's factor budget, an AAL2 session is never held back, and wrong codes are counted
/// before they are compared.
@Suite("MFA budgets")
struct MFABudgetTests {
    static let owner = "ada@example.com"

    static func harness(_ configure: @escaping (inout ServerConfiguration) -> Void) async throws -> Harness {
        try await Harness.make {
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
            configure(&$0)
        }
    }

    @Test func anAttackersChallengesSpendOnlyTheAttackersNetwork() async throws {
        let harness = try await Self.harness { $0.rateLimits.mfaPerUser = 5 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (verified, factor) = try await client.userWithFactor(Self.owner, clock: harness.clock)
            let attacker = try await client.signIn(Self.owner).string("access_token")
            let from = ["X-Forwarded-For": "198.51.100.66"]
            for _ in 0..<5 {
                #expect(try await client.challenge(factor.id, bearer: attacker, headers: from).status == .ok)
            }
            #expect(try await client.challenge(factor.id, bearer: attacker, headers: from).status == .tooManyRequests)
            // The owner's AAL2 session, and a fresh sign-in on the owner's own network, go on.
            let own = ["X-Forwarded-For": "203.0.113.5"]
            let aal2 = try await client.challenge(factor.id, bearer: verified.string("access_token"), headers: own)
            #expect(aal2.status == .ok)
            let aal1 = try await client.signIn(Self.owner).string("access_token")
            let challenge = try await client.challenge(factor.id, bearer: aal1, headers: own)
            #expect(challenge.status == .ok)
            harness.clock.advance(by: 30)
            let raised = try await client.verify(
                factor.id,
                challenge: challenge.string("id") ?? "",
                code: factor.app.code(at: harness.clock.now()),
                bearer: aal1,
                headers: own
            )
            #expect(raised.status == .ok, "\(raised.text)")
        }
    }

    @Test func anAAL2SessionIsNeverHeldBackByWrongCodes() async throws {
        let harness = try await Self.harness { $0.rateLimits.mfaFailuresPerUser = 3 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (verified, factor) = try await client.userWithFactor(Self.owner, clock: harness.clock)
            let attacker = try await client.signIn(Self.owner).string("access_token")
            var statuses: [UInt] = []
            for index in 0..<5 {
                let from = ["X-Forwarded-For": "198.51.100.\(index)"]
                let challenge = try await client.challenge(factor.id, bearer: attacker, headers: from)
                let wrong = try await client.verify(
                    factor.id,
                    challenge: challenge.string("id") ?? "",
                    code: "000000",
                    bearer: attacker,
                    headers: from
                )
                statuses.append(UInt(wrong.status.code))
            }
            #expect(statuses == [422, 422, 422, 429, 429], "wrong codes per user, from every network")
            let owner = verified.string("access_token")
            let challenge = try await client.challenge(factor.id, bearer: owner)
            #expect(challenge.status == .ok)
            harness.clock.advance(by: 30)
            let again = try await client.verify(
                factor.id,
                challenge: challenge.string("id") ?? "",
                code: factor.app.code(at: harness.clock.now()),
                bearer: owner
            )
            #expect(again.status == .ok, "\(again.text)")
        }
    }

    @Test func concurrentWrongCodesAreCountedBeforeTheyAreCompared() async throws {
        let harness = try await Self.harness { $0.rateLimits.mfaFailuresPerUser = 4 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (_, factor) = try await client.userWithFactor(Self.owner, clock: harness.clock)
            let attacker = try await client.signIn(Self.owner).string("access_token")
            // Eight challenges, five wrong codes on each, all at once.
            var attempts: [(String, [String: String])] = []
            for index in 0..<8 {
                let from = ["X-Forwarded-For": "198.51.100.\(index)"]
                let challenge = try await client.challenge(factor.id, bearer: attacker, headers: from)
                for _ in 0..<5 { attempts.append((challenge.string("id") ?? "", from)) }
            }
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for (challenge, from) in attempts {
                    group.addTask {
                        let reply = try await client.verify(
                            factor.id,
                            challenge: challenge,
                            code: "000000",
                            bearer: attacker,
                            headers: from
                        )
                        return UInt(reply.status.code)
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 422 }.count == 4, "only the budget's wrong codes were compared")
            #expect(statuses.filter { $0 == 429 }.count == attempts.count - 4)
        }
    }
}
