import Foundation
import GatehouseServer
import GatehouseStorage
import HTTPTypes
import Testing

@Suite("Refresh rotation and logout")
struct RefreshAndLogoutTests {
    @Test func rotationReturnsTheCurrentTokenToTheParentAndRevokesOnReuse() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let first = try await client.confirmedSession(email: "ada@example.com")
            let t0 = try #require(first.string("refresh_token"))
            #expect(t0.hasPrefix("gh1_") && t0.count >= 70, "at least 256 bits")

            let second = try await client.refresh(t0)
            #expect(second.status == .ok)
            let t1 = try #require(second.string("refresh_token"))
            #expect(t1 != t0)

            clock.advance(by: 60)
            // The direct parent (the client lost the response): the current token, nothing minted.
            let replay = try await client.refresh(t0)
            #expect(replay.status == .ok)
            #expect(replay.string("refresh_token") == t1)

            let third = try await client.refresh(t1)
            let t2 = try #require(third.string("refresh_token"))
            clock.advance(by: 5)
            // Within the 10 s reuse interval, an older token gets the current one.
            #expect(try await client.refresh(t0).string("refresh_token") == t2)

            clock.advance(by: 30)
            let reuse = try await client.refresh(t0)
            #expect(reuse.status == .badRequest)
            #expect(reuse.errorCode == "refresh_token_already_used")
            // The whole family is gone: the newest refresh token and its access token are dead.
            #expect(try await client.refresh(t2).errorCode == "refresh_token_not_found")
            let user = try await client.get("/user", bearer: third.string("access_token"))
            #expect(user.status == .forbidden)
            #expect(user.errorCode == "session_not_found")
        }
    }

    @Test func fiftyConcurrentRefreshesOfOneTokenGiveOneConsistentAnswer() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("refresh_token"))
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<50 { group.addTask { try await client.refresh(token) } }
                var replies: [Reply] = []
                for try await reply in group { replies.append(reply) }
                return replies
            }
            #expect(replies.allSatisfy { $0.status == .ok })
            let children = Set(replies.compactMap { $0.string("refresh_token") })
            #expect(children.count == 1, "never two valid children")
            let child = try #require(children.first)
            #expect(try await client.refresh(child).status == .ok, "exactly one live token, and it works")
            // One audit line per rotation that won: the fifty made one, the child's refresh another.
            let audit = try await harness.server.storage.read { try await $0.auditEntries(limit: 500) }
            #expect(audit.filter { $0.action == .tokenRefreshed }.count == 2)
        }
    }

    @Test func tamperedOrUnknownTokensAreNotFound() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            var token = Array(try #require(session.string("refresh_token")))
            token[token.count - 3] = token[token.count - 3] == "A" ? "B" : "A"
            for candidate in [String(token), "gh1_short", "", "not-a-token", String(repeating: "x", count: 5000)] {
                let reply = try await client.refresh(candidate)
                #expect(reply.status == .badRequest, "\(candidate.prefix(20))")
                #expect(reply.errorCode == "refresh_token_not_found")
            }
        }
    }

    @Test func sessionsExpireAfterInactivity() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            clock.advance(by: 31 * 86_400)
            let reply = try await client.refresh(try #require(session.string("refresh_token")))
            #expect(reply.errorCode == "session_expired")
        }
    }

    @Test(arguments: ["local", "others", "global"])
    func logoutScopes(scope: String) async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let first = try await client.confirmedSession(email: "ada@example.com")
            let second = try await client.signIn("ada@example.com")
            let caller = try #require(second.string("access_token"))
            let logout = try await client.post("/logout?scope=\(scope)", bearer: caller)
            #expect(logout.status == .noContent)
            let callerAlive = try await client.get("/user", bearer: caller).status == .ok
            let otherAlive = try await client.get("/user", bearer: first.string("access_token")).status == .ok
            switch scope {
            case "local": #expect(!callerAlive && otherAlive)
            case "others": #expect(callerAlive && !otherAlive)
            default: #expect(!callerAlive && !otherAlive)
            }
            let refreshed = try await client.refresh(try #require(second.string("refresh_token")))
            #expect((refreshed.status == .ok) == callerAlive)
        }
    }

    @Test func anUnknownLogoutScopeIsABadRequest() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let reply = try await client.post("/logout?scope=everything", bearer: session.string("access_token"))
            #expect(reply.status == .badRequest)
        }
    }

    @Test func aRestartKeepsUsersAndSessions() async throws {
        let first = try await Harness.make()
        defer { first.removeFiles() }
        let box = ReplyBox()
        try await first.live { client in
            box.reply = try await client.confirmedSession(email: "ada@example.com")
        }
        let second = try await Harness.make(clock: first.clock, directory: first.directory)
        try await second.live { client in
            let session = try #require(box.reply)
            #expect(try await client.get("/user", bearer: session.string("access_token")).status == .ok)
            #expect(try await client.refresh(try #require(session.string("refresh_token"))).status == .ok)
            #expect(try await client.signIn("ada@example.com").status == .ok)
        }
    }
}

final class ReplyBox: @unchecked Sendable {
    var reply: Reply?
}
