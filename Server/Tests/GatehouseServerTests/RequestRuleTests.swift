import Foundation
import GatehouseCore
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: the request rules `Server/openapi.yaml` states, as the server enforces them: GoTrue's
/// where the server had strayed from it (`/verify`'s shapes, `ban_duration`'s Go durations, an ID
/// token's provider spelled exactly), and rules a JSON Schema can state exactly (white space and
/// lengths counted in Unicode scalars, every name field checked).
@Suite("Request rules")
struct RequestRuleTests {
    @Test func aLinkWithoutATokenOrATypeIsRefusedAndOtherFailuresRedirect() async throws {
        let harness = try await Harness.make { $0.siteURL = "https://app.example.com" }
        defer { harness.removeFiles() }
        try await harness.live { client in
            for query in ["", "?type=signup", "?token=abc", "?token=&type=signup", "?token=abc&type="] {
                let reply = try await client.get("/verify\(query)")
                #expect(reply.status == .badRequest && reply.errorCode == "validation_failed", "\(query)")
                #expect(reply.header("Location") == nil)
            }
            let unknownType = try await client.get("/verify?token=abc&type=sms")
            #expect(unknownType.status == .seeOther)
            #expect(
                unknownType.header("Location")?.contains("#error=invalid_request&error_code=validation_failed") == true
            )
            let wrongToken = try await client.get("/verify?token=abc&type=signup")
            #expect(wrongToken.header("Location")?.contains("#error=access_denied&error_code=otp_expired") == true)
        }
    }

    @Test func verifyTakesACodeWithItsAddressOrALinkHashAloneAsGoTrueDoes() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let link = try await client.post(
                "/admin/generate_link",
                #"{"type":"magiclink","email":"ada@example.com"}"#,
                bearer: admin
            )
            #expect(link.status == .badRequest || link.status == .notFound, "no such user yet")
            _ = try await client.confirmedSession(email: "ada@example.com")
            let issued = try await client.post(
                "/admin/generate_link",
                #"{"type":"magiclink","email":"ada@example.com"}"#,
                bearer: admin
            )
            let hash = try #require(issued.string("hashed_token"))
            let code = try #require(issued.string("email_otp"))
            let refused = [
                #"{"type":"magiclink","token":"\#(code)","token_hash":"\#(hash)","email":"ada@example.com"}"#,
                #"{"type":"magiclink","token_hash":"\#(hash)","email":"ada@example.com"}"#,
                #"{"type":"magiclink","email":"ada@example.com"}"#,
                #"{"type":"magiclink","token":"","token_hash":""}"#,
                #"{"type":"magiclink","token":"\#(code)"}"#,
                #"{"type":"magiclink","token":"\#(code)","email":"not an address"}"#,
            ]
            for body in refused {
                let reply = try await client.post("/verify", body)
                #expect(reply.status == .badRequest && reply.errorCode == "validation_failed", "\(body)")
            }
            // Empty fields are missing ones; the link still works, once.
            let verified = try await client.post(
                "/verify",
                #"{"type":"magiclink","token":"","email":"","token_hash":"\#(hash)"}"#
            )
            #expect(verified.status == .ok)
            #expect(verified.string("access_token") != nil)
        }
    }

    @Test func banDurationsAreGoDurations() throws {
        let valid: [(String, Double)] = [
            ("0", 0), ("+0", 0), ("-0", 0), ("0s", 0), ("90s", 90), ("30m", 1800), ("24h", 86400),
            ("1h30m", 5400), ("1.5h", 5400), (".5h", 1800), ("1.h", 3600), ("2h45m10s", 9910), ("300ms", 0.3),
            ("1500us", 0.0015), ("1500\u{B5}s", 0.0015), ("1500\u{3BC}s", 0.0015), ("1000000ns", 0.001),
            ("-1h", -3600), ("1h1h", 7200),
        ]
        for (text, seconds) in valid {
            let parsed = try #require(BanDuration.seconds(text), "\(text)")
            #expect(abs(parsed - seconds) < 1e-9, "\(text)")
        }
        let invalid = [
            "", "h", "1", "1x", "1H", "1.2.3h", ".h", "+", "-", "1e3h", "infh", "nanh", "0x1p3h", " 1h", "1h ",
            "1 h", "1h\u{301}", "\u{661}h", "00", "1m1",
        ]
        for text in invalid {
            #expect(BanDuration.seconds(text) == nil, "\(text.debugDescription)")
        }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try BanDuration.change(nil, now: now) == .keep)
        #expect(try BanDuration.change("", now: now) == .keep)
        #expect(try BanDuration.change("none", now: now) == .lift)
        #expect(try BanDuration.change("0h", now: now) == .lift)
        #expect(try BanDuration.change("1h30m", now: now) == .until(now.addingTimeInterval(5400)))
        #expect(
            try BanDuration.change(String(repeating: "9", count: 400) + "h", now: now)
                == .until(now.addingTimeInterval(BanDuration.longest)),
            "beyond Go's largest duration: its largest"
        )
        #expect(throws: APIError.self) { try BanDuration.change("infh", now: now) }
        #expect(BanDuration.Change.keep.applied(to: now) == now)
        #expect(BanDuration.Change.lift.applied(to: now) == nil)
    }

    @Test func anAdminBansForAGoDurationAndAnEmptyOneChangesNothing() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let created = try await client.post(
                "/admin/users",
                #"{"email":"bob@example.com","password":"correct horse battery","email_confirm":true,"ban_duration":"1h30m"}"#,
                bearer: admin
            )
            #expect(created.status == .ok)
            let id = try #require(created.string("id"))
            let until = try #require(created.string("banned_until"))
            let expected = harness.clock.now().addingTimeInterval(5400)
            let reader = ISO8601DateFormatter()
            reader.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let stamp = try #require(reader.date(from: until))
            #expect(abs(stamp.timeIntervalSince(expected)) < 1)
            #expect(try await client.signIn("bob@example.com").errorCode == "user_banned")
            let kept = try await client.send(.put, "/admin/users/\(id)", json: #"{"ban_duration":""}"#, bearer: admin)
            #expect(kept.status == .ok && kept.string("banned_until") == until, "an empty duration changes nothing")
            for bad in ["infh", "1e3h", "forever", "24"] {
                let reply = try await client.send(
                    .put,
                    "/admin/users/\(id)",
                    json: #"{"ban_duration":"\#(bad)"}"#,
                    bearer: admin
                )
                #expect(reply.status == .badRequest && reply.errorCode == "validation_failed", "\(bad)")
            }
            let past = try await client.send(
                .put,
                "/admin/users/\(id)",
                json: #"{"ban_duration":"-1h"}"#,
                bearer: admin
            )
            #expect(past.status == .ok)
            #expect(try await client.signIn("bob@example.com").status == .ok, "a ban that ended an hour ago")
            let lifted = try await client.send(
                .put,
                "/admin/users/\(id)",
                json: #"{"ban_duration":"0"}"#,
                bearer: admin
            )
            #expect(lifted.status == .ok && lifted["banned_until"] == nil)
        }
    }

    @Test func addressesAreReadScalarByScalar() throws {
        #expect(try EmailAddress.normalized(" Ada@Example.com\u{3000}\u{2028}") == "ada@example.com")
        #expect(try EmailAddress.normalized("ada@\u{301}example.com") == "ada@\u{301}example.com", "a mark after @")
        #expect(try EmailAddress.normalized("ada@example.\u{301}com") == "ada@example.\u{301}com")
        let refused = [
            "", "ada", "@example.com", "ada@", "ada@example", "ada@.example.com", "ada@example.com.", "a@b@example.com",
            "a da@example.com", "ada@exa\u{A0}mple.com", "ada@example.com\u{0}", "\u{200B}\u{301}",
            String(repeating: "a", count: 243) + "@example.com",
        ]
        for address in refused {
            #expect(throws: APIError.self, "\(address.debugDescription)") { try EmailAddress.normalized(address) }
        }
        #expect(try EmailAddress.normalized(String(repeating: "a", count: 242) + "@example.com").utf8.count == 254)
    }

    @Test func namesCountScalarsAndEveryNameFieldIsChecked() throws {
        let accented = String(repeating: "e\u{301}", count: 50)
        #expect(try ChosenName.validated(accented, field: "f", maximumCharacters: 100) == accented)
        #expect(throws: APIError.self, "101 scalars in 51 characters") {
            try ChosenName.validated(accented + "e\u{301}", field: "f", maximumCharacters: 100)
        }
        #expect(throws: APIError.self, "U+200B is no white space to trim") {
            try ChosenName.validated("phone\u{200B}", field: "f", maximumCharacters: 100)
        }
        let checked = IDTokenGrantRequest(
            provider: "apple",
            idToken: "token",
            givenName: "Ada",
            data: ["given_name": .string("\u{202E}ecalevoL"), "name": .string("ignored: full_name comes first")]
        )
        #expect(throws: APIError.self, "a hidden character in data's given_name, beside a good given_name") {
            try ProviderName.from(checked)
        }
        let blankFirst = IDTokenGrantRequest(
            provider: "apple",
            idToken: "token",
            fullName: WirePersonName(givenName: "Ada", familyName: "Lovelace"),
            givenName: "  ",
            data: ["full_name": .number(1)]
        )
        #expect(
            try ProviderName.from(blankFirst)
                == ProviderName(givenName: "Ada", familyName: "Lovelace", fullName: "Ada Lovelace")
        )
    }

    @Test func addressesAndNamesAreReadScalarByScalarOverHTTP() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            // A combining mark after the `@` does not hide it (the document's pattern reads scalars).
            let marked = try await client.post(
                "/signup",
                #"{"email":" Ada@\u0301Example.com\u3000","password":"correct horse battery"}"#
            )
            #expect(marked.status == .ok, "\(marked.text)")
            for address in [#"ada@exa\u00A0mple.com"#, #"a@b@example.com"#, #"ada@example.com."#] {
                let refused = try await client.post(
                    "/signup",
                    #"{"email":"\#(address)","password":"correct horse battery"}"#
                )
                #expect(refused.status == .badRequest && refused.errorCode == "validation_failed", "\(address)")
            }
            let session = try await client.confirmedSession(email: "grace@example.com")
            let bearer = try #require(session.string("access_token"))
            // 100 scalars in 50 characters is the longest name; 102 scalars in 51 characters is refused.
            let accented = String(repeating: #"e\u0301"#, count: 50)
            let longest = try await client.post(
                "/factors",
                #"{"factor_type":"totp","friendly_name":"\#(accented)"}"#,
                bearer: bearer
            )
            #expect(longest.status == .ok, "\(longest.text)")
            let tooLong = try await client.post(
                "/factors",
                #"{"factor_type":"totp","friendly_name":"\#(accented)e\u0301"}"#,
                bearer: bearer
            )
            #expect(tooLong.status == .badRequest && tooLong.errorCode == "validation_failed", "\(tooLong.text)")
        }
    }

    @Test func everyNameFieldBesideAnIDTokenIsChecked() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            func signIn(_ names: String) async throws -> Reply {
                let nonce = UUID().uuidString
                let token = try apple.token(now: harness.clock.now(), subject: "apple-2", rawNonce: nonce)
                return try await client.post(
                    "/token?grant_type=id_token",
                    #"{"provider":"apple","id_token":"\#(token)","nonce":"\#(nonce)",\#(names)}"#
                )
            }
            let hidden = try await signIn(#""given_name":"Ada","data":{"given_name":"\u202Eecalevol"}"#)
            #expect(hidden.status == .badRequest && hidden.errorCode == "validation_failed", "\(hidden.text)")
            let clean = try await signIn(#""given_name":"Ada","data":{"given_name":"Augusta"}"#)
            #expect(clean.status == .ok, "\(clean.text)")
            let user = try #require(clean["user"] as? [String: Any])
            let metadata = try #require(user["user_metadata"] as? [String: Any])
            #expect(metadata["given_name"] as? String == "Ada", "the request's own field comes first")
        }
    }

    @Test func anIDTokensProviderIsSpelledExactly() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let nonce = UUID().uuidString
            let token = try apple.token(now: harness.clock.now(), subject: "apple-1", rawNonce: nonce)
            let capitalised = try await client.post(
                "/token?grant_type=id_token",
                #"{"provider":"Apple","id_token":"\#(token)","nonce":"\#(nonce)"}"#
            )
            #expect(capitalised.status == .badRequest && capitalised.errorCode == "provider_disabled")
            let exact = try await client.post(
                "/token?grant_type=id_token",
                #"{"provider":"apple","id_token":"\#(token)","nonce":"\#(nonce)"}"#
            )
            #expect(exact.status == .ok)
        }
    }
}
