import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The verified-token cache (issue 35) may skip a token's signature check, never a check that a
/// request needs: a signed-out session's token is refused at once, an expired one too, and the
/// cache holds a bounded number of tokens, each under its whole text.
@Suite("Verified-token cache")
struct VerifiedTokenCacheTests {
    @Test(arguments: ["local", "global"])
    func aSignedOutSessionsTokenIsRefusedAtOnce(scope: String) async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let verified = harness.server.services.tokens.verified
        let now = Int(harness.clock.now().timeIntervalSince1970)
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            for _ in 0..<3 { #expect(try await client.get("/user", bearer: token).status == .ok) }
            #expect(verified.claims(for: token, now: now) != nil, "the token was not remembered")
            #expect(try await client.post("/logout?scope=\(scope)", bearer: token).status == .noContent)
            #expect(verified.claims(for: token, now: now) == nil, "the ended session's token is still held")
            let refused = try await client.get("/user", bearer: token)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "session_not_found")
        }
    }

    /// A session ended where this process cannot see it (another instance, an admin, the sweep):
    /// the next request with its remembered token is refused, and the token is forgotten.
    @Test func aSessionEndedElsewhereIsRefusedAtOnce() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let verified = harness.server.services.tokens.verified
        let now = Int(harness.clock.now().timeIntervalSince1970)
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            #expect(try await client.get("/user", bearer: token).status == .ok)
            #expect(verified.claims(for: token, now: now) != nil)
            let sessionKey = try #require(verified.claims(for: token, now: now)?.sessionID)
            let sessionID = try #require(UUID(text: sessionKey))
            try await harness.server.storage.transaction { try await $0.deleteSession(id: sessionID) }
            let refused = try await client.get("/user", bearer: token)
            #expect(refused.errorCode == "session_not_found")
            #expect(verified.claims(for: token, now: now) == nil)
        }
    }

    @Test func aRememberedTokenIsRefusedOnceExpired() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            #expect(try await client.get("/user", bearer: token).status == .ok)
            harness.clock.advance(by: TimeInterval(harness.configuration.jwtExpiry + harness.configuration.jwtLeeway))
            let refused = try await client.get("/user", bearer: token)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "bad_jwt")
        }
    }

    /// An attacker who saw a valid token sends it with its signature changed: the cache, keyed by
    /// the whole text, does not answer for it.
    @Test func aTokenWithAnotherSignatureIsNotTakenForARememberedOne() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            #expect(try await client.get("/user", bearer: token).status == .ok)
            let dot = try #require(token.lastIndex(of: "."))
            let signature = Array(token[token.index(after: dot)...])
            var forged = signature
            forged.swapAt(0, forged.count / 2)
            if forged == signature { forged[0] = forged[0] == "A" ? "B" : "A" }
            let refused = try await client.get("/user", bearer: String(token[...dot]) + String(forged))
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "bad_jwt")
        }
    }

    @Test func itHoldsAtMostItsCapacityAndNothingPastExpiry() throws {
        let cache = VerifiedTokenCache(capacity: 8)
        let claims = try JSONDecoder().decode(
            VerifiedAccess.self,
            from: Data(#"{"exp":200,"iss":"i","sub":"u","role":"authenticated","session_id":"s"}"#.utf8)
        )
        for index in 0..<50 { cache.remember("token-\(index)", claims: claims, expires: 200, now: 100) }
        #expect(cache.count == 8)
        #expect(cache.claims(for: "token-49", now: 199) != nil)
        #expect(cache.claims(for: "token-49", now: 200) == nil, "answered at its expiry")
        #expect(cache.count == 7, "kept past its expiry")
        cache.remember("late", claims: claims, expires: 200, now: 200)
        #expect(cache.claims(for: "late", now: 150) == nil, "remembered an expired token")
        cache.drop(session: "s")
        #expect(cache.count == 0)
        // A full cache of expired tokens makes room from them first.
        for index in 0..<8 { cache.remember("old-\(index)", claims: claims, expires: 120, now: 100) }
        cache.remember("new", claims: claims, expires: 200, now: 150)
        #expect(cache.count == 1)
        cache.drop(user: "u", keeping: "s")
        #expect(cache.count == 1)
        cache.drop(user: "u")
        #expect(cache.count == 0)
    }
}
