import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: limits that stop an abuser without hurting everyone else.
@Suite("Abuse limits")
struct AbuseLimitTests {
    @Test func recoverForUnknownAddressesCannotSpendTheServerMailBudget() async throws {
        let harness = try await Harness.make { $0.rateLimits.emailSent = 3 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            // Given an attacker asking recovery for 50 addresses nobody has,
            for index in 0..<50 {
                #expect(try await client.post("/recover", #"{"email":"nobody\#(index)@example.com"}"#).status == .ok)
            }
            // a real person still gets a sign-in code.
            #expect(try await client.post("/otp", #"{"email":"ada@example.com"}"#).status == .ok)
            _ = try await client.waitForCode(to: "ada@example.com")
        }
    }

    @Test func everyMailKindCountsAgainstItsRecipientsHourlyLimit() async throws {
        let harness = try await Harness.make {
            $0.rateLimits.emailPerRecipient = 2
            $0.smtpMaxFrequency = 0
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            // Each request's mail goes out before the next one replaces its code (a mail whose
            // code was replaced is not sent at all).
            for _ in 0..<5 {
                _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
                try await client.waitForOutbox()
            }
            // A sign-up code, then reauthentication codes: every kind counts.
            let session = try await client.confirmedSession(email: "bob@example.com")
            let token = try #require(session.string("access_token"))
            for _ in 0..<5 {
                _ = try await client.get("/reauthenticate", bearer: token)
                try await client.waitForOutbox()
            }
            #expect(await client.mailCount(to: "ada@example.com") == 2)
            #expect(await client.mailCount(to: "bob@example.com") == 2)
        }
    }

    @Test func spacingAnswersAlikeForKnownAndUnknownAddresses() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let twice: @Sendable (String) async throws -> [String] = { email in
                var answers: [String] = []
                for _ in 0..<2 {
                    let reply = try await client.post("/otp", #"{"email":"\#(email)","create_user":false}"#)
                    answers.append("\(reply.status.code) \(reply.errorCode ?? "")")
                }
                return answers
            }
            let known = try await twice("ada@example.com")
            let unknown = try await twice("nobody@example.com")
            #expect(known == unknown, "known \(known) vs unknown \(unknown)")
            #expect(known == ["200 ", "429 over_email_send_rate_limit"])
        }
    }

    @Test func wrongPasswordsElsewhereNeverLockTheOwnerOut() async throws {
        let harness = try await Harness.make {
            $0.mailerAutoconfirm = true
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let signIn: @Sendable (String, String) async throws -> Reply = { password, address in
                try await client.post(
                    "/token?grant_type=password",
                    #"{"email":"ada@example.com","password":"\#(password)"}"#,
                    headers: ["X-Forwarded-For": address]
                )
            }
            // An attacker's 100 wrong passwords slow the attacker: 429 after 5, with growing waits.
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<100 { statuses.append(try await signIn("wrong guess", "198.51.100.66").status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .badRequest })
            #expect(statuses.dropFirst(5).allSatisfy { $0 == .tooManyRequests })
            let waiting = try await signIn("wrong guess", "198.51.100.66")
            #expect(Int(waiting.header("Retry-After") ?? "") ?? 0 <= 60)
            harness.clock.advance(by: 61)
            #expect(try await signIn("wrong guess", "198.51.100.66").status == .badRequest, "the minute passed")

            // The owner, on their own network, signs in at once,
            #expect(try await signIn("correct horse battery", "203.0.113.5").status == .ok)
            // and a code sign-in works even from the attacker's network.
            _ = try await client.post(
                "/otp",
                #"{"email":"ada@example.com"}"#,
                headers: ["X-Forwarded-For": "198.51.100.66"]
            )
            let code = try await client.waitForCode(to: "ada@example.com")
            let verified = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#,
                headers: ["X-Forwarded-For": "198.51.100.66"]
            )
            #expect(verified.status == .ok)
        }
    }

    @Test func concurrentWrongGuessesNeverPassTheAttemptLimit() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            #expect(try await client.post("/otp", #"{"email":"ada@example.com"}"#).status == .ok)
            let code = try await client.waitForCode(to: "ada@example.com")
            let codes = harness.server.services.codes
            let compared = codes.comparisonCount
            let wrong = (0..<60).map { String(format: "%06d", (Int(code)! + 1 + $0) % 1_000_000) }
            // 60 wrong guesses at once, as real concurrent requests on their own connections.
            let http = HTTPClient()
            let verify = URL(string: "http://127.0.0.1:\(try #require(client.client.port))/verify")!
            let statuses = await withTaskGroup(of: Int.self) { group in
                for guess in wrong {
                    group.addTask {
                        await http.send(
                            "POST",
                            verify,
                            json: #"{"type":"email","email":"ada@example.com","token":"\#(guess)"}"#
                        )
                        .status
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 403 }, "\(statuses)")
            let user = try #require(
                try await harness.server.storage.read { try await $0.user(email: "ada@example.com") }
            )
            let stored = try await harness.server.storage.read {
                try await $0.code(userID: user.id, purpose: .magicLink)
            }
            #expect(stored?.attempts == 5, "every guess was counted, and none past the limit")
            #expect(codes.comparisonCount - compared == 5, "checked exactly as often as the limit allows")
            let right = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(right.status == .forbidden, "the code died after 5 wrong guesses")
        }
    }

    @Test func concurrentWrongGuessesFromManyAddressesNeverPassTheAttemptLimit() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let verification = harness.server.services.codeVerification
        let codes = harness.server.services.codes
        try await harness.live { client in
            #expect(try await client.post("/otp", #"{"email":"ada@example.com"}"#).status == .ok)
            let code = try await client.waitForCode(to: "ada@example.com")
            let compared = codes.comparisonCount
            // 200 wrong guesses at once, each from its own address (no shared limiter row).
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    let guess = String(format: "%06d", (Int(code)! + 1 + index) % 1_000_000)
                    group.addTask {
                        _ = try? await verification(
                            VerifyRequest(type: .email, email: "ada@example.com", token: guess),
                            ip: "198.51.\(index / 256).\(index % 256)"
                        )
                    }
                }
            }
            let user = try #require(
                try await harness.server.storage.read { try await $0.user(email: "ada@example.com") }
            )
            let stored = try await harness.server.storage.read {
                try await $0.code(userID: user.id, purpose: .magicLink)
            }
            #expect(stored?.attempts == 5)
            #expect(codes.comparisonCount - compared == 5, "checked exactly as often as the limit allows")
            let right = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(right.status == .forbidden, "the code died after 5 wrong guesses")
        }
    }

    @Test func concurrentWrongReauthenticationNoncesNeverPassTheAttemptLimit() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let codes = harness.server.services.codes
        let storage = harness.server.storage
        let now = harness.clock.now()
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let mailed = await client.mailCount(to: "ada@example.com")
            #expect(try await client.get("/reauthenticate", bearer: session.string("access_token")).status == .ok)
            let nonce = try await client.waitForCode(to: "ada@example.com", after: mailed)
            let user = try #require(try await storage.read { try await $0.user(email: "ada@example.com") })
            let compared = codes.comparisonCount
            // 100 wrong nonces checked at once, each in its own transaction.
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    let guess = String(format: "%06d", (Int(nonce)! + 1 + index) % 1_000_000)
                    group.addTask {
                        _ = try? await storage.transaction { tx in
                            try await codes.consumeReauthentication(
                                guess,
                                userID: user.id,
                                maximumAttempts: 5,
                                in: tx,
                                now: now
                            )
                        }
                    }
                }
            }
            #expect(codes.comparisonCount - compared == 5, "checked exactly as often as the limit allows")
        }
    }

    @Test func theMemoryLimiterStaysBoundedAndKeepsOtherBucketsWindows() async throws {
        let limiter = MemoryRateLimiter(capacity: 1000)
        let now = Date()
        try await limiter.hit(.failedPasswordHour, key: "ada@example.com|192.0.2.1", limit: 1, window: 3600, now: now)
        // A flood of new source addresses in another bucket,
        for index in 0..<5000 {
            try await limiter.hit(
                .otp,
                key: "10.\(index / 65536).\(index / 256 % 256).\(index % 256)",
                limit: 30,
                window: 300,
                now: now
            )
        }
        #expect(await limiter.count(.otp) <= 1000)
        // does not reset the account's hour.
        await #expect(throws: APIError.self) {
            try await limiter.hit(
                .failedPasswordHour,
                key: "ada@example.com|192.0.2.1",
                limit: 1,
                window: 3600,
                now: now.addingTimeInterval(400)
            )
        }
        // Expired windows go without a scan.
        try await limiter.hit(.otp, key: "late", limit: 30, window: 300, now: now.addingTimeInterval(301))
        #expect(await limiter.count(.otp) == 1)
    }

    @Test func theMemoryLimiterTellsLongKeysApartByEveryCharacter() async throws {
        // Keys are held as digests: two long keys that differ only in their last character
        // still count apart, and the same key counts together.
        let limiter = MemoryRateLimiter(capacity: 1000)
        let now = Date()
        let stem = String(repeating: "a", count: 4096)
        try await limiter.hit(.emailRecipient, key: stem + "x", limit: 1, window: 3600, now: now)
        try await limiter.hit(.emailRecipient, key: stem + "y", limit: 1, window: 3600, now: now)
        await #expect(throws: APIError.self) {
            try await limiter.hit(.emailRecipient, key: stem + "x", limit: 1, window: 3600, now: now)
        }
        #expect(await limiter.isLimited(.emailRecipient, key: stem + "y", limit: 1, window: 3600, now: now) != nil)
        #expect(await limiter.isLimited(.emailRecipient, key: stem + "z", limit: 1, window: 3600, now: now) == nil)
        #expect(await limiter.count(.emailRecipient) == 2)
    }

    @Test func theMemoryLimiterQueueStaysBoundedWhileWindowsReopen() async throws {
        // Ten keys, each coming back in window after window for a simulated day: the queue of
        // opened windows holds the open ones, not every window ever opened.
        let limiter = MemoryRateLimiter(capacity: 1000)
        let start = Date()
        for minute in 0..<1440 {
            for key in 0..<10 {
                try await limiter.hit(
                    .sensitiveChanges,
                    key: "user-\(key)",
                    limit: 100,
                    window: 300,
                    now: start.addingTimeInterval(Double(minute * 60))
                )
            }
        }
        #expect(await limiter.count(.sensitiveChanges) == 10)
        #expect(await limiter.queued(.sensitiveChanges) <= 20)
    }
}
