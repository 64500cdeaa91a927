import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 31, finding 8 (`security.md` SA-5): failed-password tiers are counted atomically before
/// bcrypt, so concurrent wrong passwords never pass a tier's allowance together; the owner on
/// another network signs in at once.
@Suite("Wrong passwords counted before bcrypt")
struct PasswordGuessCountingTests {
    @Test func sixtyConcurrentWrongPasswordsReachBcryptAtMostFiveTimes() async throws {
        let harness = try await Harness.make {
            $0.mailerAutoconfirm = true
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
        }
        defer { harness.removeFiles() }
        let passwords = harness.server.services.passwords
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let checked = passwords.verificationCount
            let http = HTTPClient()
            let url = URL(string: "http://127.0.0.1:\(try #require(client.client.port))/token?grant_type=password")!
            let statuses = await withTaskGroup(of: Int.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        await http.send("POST", url, json: #"{"email":"ada@example.com","password":"guess \#(index)"}"#)
                            .status
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(passwords.verificationCount - checked <= 5, "at most the minute's allowance reached bcrypt")
            #expect(statuses.filter { $0 == 400 }.count <= 5, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count >= 55)
            // The owner, on their own network, is not held back.
            let owner = try await client.post(
                "/token?grant_type=password",
                #"{"email":"ada@example.com","password":"correct horse battery"}"#,
                headers: ["X-Forwarded-For": "203.0.113.5"]
            )
            #expect(owner.status == .ok)
        }
    }

    @Test func rightPasswordsAreGivenBackSoTheOwnerIsNeverLimitedByThem() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            for _ in 0..<12 { #expect(try await client.signIn("ada@example.com").status == .ok) }
            for _ in 0..<4 { #expect(try await client.signIn("ada@example.com", "wrong").status == .badRequest) }
            #expect(try await client.signIn("ada@example.com").status == .ok, "four failures, under the minute's five")
        }
    }
}
