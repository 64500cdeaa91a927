import Foundation
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

@Suite("One-time codes, recovery and enumeration")
struct CodeTests {
    @Test func magicCodeSignsInAndWorksOnce() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            #expect(try await client.post("/otp", #"{"email":"ada@example.com"}"#).text == "{}")
            let code = try await client.waitForCode(to: "ada@example.com")
            let session = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(session.status == .ok)
            #expect(session.user["email"] as? String == "ada@example.com")
            let again = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(again.status == .forbidden)
            #expect(again.errorCode == "otp_expired")
        }
    }

    @Test func aCodeExpiresAfterTenMinutes() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            let code = try await client.waitForCode(to: "ada@example.com")
            clock.advance(by: 601)
            let late = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(late.errorCode == "otp_expired")
        }
    }

    @Test func fiveWrongAttemptsKillTheCode() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            let code = try await client.waitForCode(to: "ada@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let reply = try await client.post(
                    "/verify",
                    #"{"type":"email","email":"ada@example.com","token":"\#(wrong)"}"#
                )
                #expect(reply.errorCode == "otp_expired")
            }
            let right = try await client.post(
                "/verify",
                #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(right.status == .forbidden, "the right code after five wrong ones is refused")
        }
    }

    @Test func aSecondSendWithinSixtySecondsIsRateLimitedAndANewCodeVoidsTheOld() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            let old = try await client.waitForCode(to: "ada@example.com")
            let soon = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            #expect(soon.status == .tooManyRequests)
            #expect(soon.errorCode == "over_email_send_rate_limit")
            #expect(Int(soon.header("Retry-After") ?? "") ?? 0 > 0)
            clock.advance(by: 61)
            _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            let new = try await client.waitForCode(to: "ada@example.com", after: 1)
            if new != old {
                let stale = try await client.post(
                    "/verify",
                    #"{"type":"email","email":"ada@example.com","token":"\#(old)"}"#
                )
                #expect(stale.errorCode == "otp_expired")
            }
            #expect(
                try await client.post("/verify", #"{"type":"email","email":"ada@example.com","token":"\#(new)"}"#)
                    .status == .ok
            )
        }
    }

    @Test func aCodeForOnePurposeDoesNotVerifyAnother() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let code = try await client.waitForCode(to: "ada@example.com")
            let wrongType = try await client.post(
                "/verify",
                #"{"type":"recovery","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(wrongType.errorCode == "otp_expired")
        }
    }

    @Test func unknownAddressesGetTheSameAnswerAndNoMail() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let known = try await client.post("/recover", #"{"email":"ada@example.com"}"#)
            let unknown = try await client.post("/recover", #"{"email":"nobody@example.com"}"#)
            #expect(known.status == .ok && unknown.status == .ok && known.text == unknown.text)
            let otp = try await client.post("/otp", #"{"email":"ghost@example.com","create_user":false}"#)
            #expect(otp.status == .ok && otp.text == "{}")
            let resend = try await client.post("/resend", #"{"type":"signup","email":"ghost@example.com"}"#)
            #expect(resend.status == .ok)
            _ = try await client.waitForCode(to: "ada@example.com")
            #expect(await client.mailCount(to: "nobody@example.com") == 0)
            #expect(await client.mailCount(to: "ghost@example.com") == 0)
        }
    }

    @Test func recoveryCodeSignsInSoThePasswordCanChange() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.confirmedSession(email: "ada@example.com")
            _ = try await client.post("/recover", #"{"email":"ada@example.com"}"#)
            let code = try await client.waitForCode(to: "ada@example.com", after: 1)
            let session = try await client.post(
                "/verify",
                #"{"type":"recovery","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(session.status == .ok)
            let changed = try await client.send(
                .put,
                "/user",
                json: #"{"password":"recovered phrase ok"}"#,
                bearer: session.string("access_token")
            )
            #expect(changed.status == .ok)
            #expect(try await client.signIn("ada@example.com", "recovered phrase ok").status == .ok)
        }
    }

    @Test func theDatabaseHoldsNoCodeAndNoToken() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let box = ReplyBox()
        let codes = CodeBox()
        try await harness.live { client in
            _ = try await client.post("/otp", #"{"email":"ada@example.com"}"#)
            codes.code = try await client.waitForCode(to: "ada@example.com")
            box.reply = try await client.confirmedSession(email: "bob@example.com")
        }
        let text = try await harness.databaseText()
        #expect(!text.contains(try #require(codes.code)))
        #expect(!text.contains(try #require(box.reply?.string("refresh_token"))))
        #expect(!text.contains(try #require(box.reply?.string("access_token"))))
    }

    @Test func codesAreUniformDigits() {
        var counts = Array(repeating: 0, count: 10)
        for _ in 0..<2_000 {
            for digit in OneTimeCodes.digits() { counts[Int(String(digit))!] += 1 }
        }
        // 12,000 digits, 1,200 expected per value; chi-square with 9 degrees of freedom, p = 10⁻⁶ → 44.8
        // (a false alarm once a million runs rather than once a thousand).
        let chiSquare = counts.reduce(0.0) { $0 + pow(Double($1) - 1_200, 2) / 1_200 }
        #expect(chiSquare < 44.8, "\(counts)")
    }
}

final class CodeBox: @unchecked Sendable {
    var code: String?
}
