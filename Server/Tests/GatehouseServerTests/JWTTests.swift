import Crypto
import Foundation
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// security.md J-1 to J-11: forged and broken tokens are 403 `bad_jwt`, never a 500.
@Suite("Access-token verification")
struct JWTTests {
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func segments(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    static func decode(_ segment: String) -> [String: Any] {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: text) ?? Data())) as? [String: Any] ?? [:]
    }

    static func encode(_ object: [String: Any]) -> String {
        base64URL(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// A token with the same claims but changed header or payload, re-signed with HS256 under `key`.
    static func hs256(header: [String: Any], payload: [String: Any], key: Data) -> String {
        let signingInput = encode(header) + "." + encode(payload)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: SymmetricKey(data: key))
        return signingInput + "." + base64URL(Data(mac))
    }

    @Test func forgedAndBrokenTokensAreRefused() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            #expect(try await client.get("/user", bearer: token).status == .ok)
            let parts = Self.segments(token)
            let header = Self.decode(parts[0])
            let payload = Self.decode(parts[1])
            let jwks = try await client.get("/.well-known/jwks.json")
            let publicJWK = Data(jwks.text.utf8)

            var forged: [(String, String)] = []
            // J-1: alg none.
            forged.append(("alg none", Self.encode(["alg": "none", "typ": "JWT"]) + "." + parts[1] + "."))
            // J-2: HS256 keyed with our public key.
            forged.append(
                (
                    "HS256 with the public JWK",
                    Self.hs256(
                        header: ["alg": "HS256", "typ": "JWT", "kid": header["kid"] ?? ""],
                        payload: payload,
                        key: publicJWK
                    )
                )
            )
            // J-3: odd kids.
            for kid in ["../../x", "' OR 1=1", String(repeating: "k", count: 10_000), "unknown"] {
                var changed = header
                changed["kid"] = kid
                forged.append(("kid \(kid.prefix(10))", Self.encode(changed) + "." + parts[1] + "." + parts[2]))
            }
            // J-4: jku / jwk headers naming an attacker key are ignored (the signature still fails).
            var jku = header
            jku["jku"] = "http://127.0.0.1:1/keys"
            forged.append(
                (
                    "jku header",
                    Self.hs256(
                        header: jku.merging(["alg": "HS256"]) { $1 },
                        payload: payload,
                        key: Data("attacker".utf8)
                    )
                )
            )
            // J-7: wrong issuer and audience, re-signed by an attacker.
            for (key, value) in [
                ("iss", "someone-else" as Any), ("aud", "other" as Any), ("aud", ["authenticated", "evil"] as Any),
            ] {
                var changed = payload
                changed[key] = value
                forged.append(("claim \(key)", Self.encode(header) + "." + Self.encode(changed) + "." + parts[2]))
            }
            // J-9: signature damage.
            var flipped = Array(parts[2])
            flipped[5] = flipped[5] == "A" ? "B" : "A"
            forged.append(("bit flip", parts[0] + "." + parts[1] + "." + String(flipped)))
            forged.append(("truncated", parts[0] + "." + parts[1] + "." + String(parts[2].dropLast(4))))
            forged.append(("extended", token + "AAAA"))
            forged.append(("empty signature", parts[0] + "." + parts[1] + "."))
            // J-10: shapes.
            forged.append(("two segments", parts[0] + "." + parts[1]))
            forged.append(("four segments", token + ".x"))
            forged.append(("not base64", "%%%.%%%.%%%"))
            forged.append(
                (
                    "deep nesting",
                    Self.base64URL(Data((String(repeating: "[", count: 5000)).utf8)) + "." + parts[1] + "." + parts[2]
                )
            )

            for (name, candidate) in forged {
                let reply = try await client.get("/user", bearer: candidate)
                #expect(reply.status == .forbidden, "\(name): \(reply.status)")
                #expect(reply.errorCode == "bad_jwt", "\(name)")
            }

            // J-5: expiry past the leeway is refused, inside it accepted.
            clock.advance(by: 3600 + 10)
            #expect(try await client.get("/user", bearer: token).status == .ok, "inside the 30 s leeway")
            clock.advance(by: 60)
            #expect(try await client.get("/user", bearer: token).errorCode == "bad_jwt")
        }
    }

    @Test func hs256IsUsedWhenASecretIsConfiguredAndJWKSIsEmpty() async throws {
        let harness = try await Harness.make { $0.jwtSecret = String(repeating: "s", count: 40) }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let header = Self.decode(Self.segments(try #require(session.string("access_token")))[0])
            #expect(header["alg"] as? String == "HS256")
            #expect(try await client.get("/.well-known/jwks.json").text == #"{"keys":[]}"#)
            #expect(try await client.get("/user", bearer: session.string("access_token")).status == .ok)
        }
    }

    @Test func aNotYetValidTokenIsRefused() async throws {
        let secret = String(repeating: "s", count: 40)
        let harness = try await Harness.make { $0.jwtSecret = secret }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let parts = Self.segments(try #require(session.string("access_token")))
            var payload = Self.decode(parts[1])
            payload["nbf"] = (payload["iat"] as? Int ?? 0) + 3600
            let token = Self.hs256(header: Self.decode(parts[0]), payload: payload, key: Data(secret.utf8))
            #expect(try await client.get("/user", bearer: token).errorCode == "bad_jwt")
        }
    }

    @Test func signingKeysPersistAcrossRestartsAndCarryAKid() async throws {
        let first = try await Harness.make()
        defer { first.removeFiles() }
        let box = ReplyBox()
        try await first.live { client in box.reply = try await client.get("/.well-known/jwks.json") }
        let second = try await Harness.make(clock: first.clock, directory: first.directory)
        try await second.live { client in
            let again = try await client.get("/.well-known/jwks.json")
            #expect(again.text == box.reply?.text)
            let keys = again["keys"] as? [[String: Any]]
            #expect(keys?.count == 1)
            #expect(keys?.first?["kid"] as? String != nil && keys?.first?["d"] == nil, "public parts only")
            #expect(again.header("Cache-Control") == "public, max-age=600")
        }
    }

    @Test func adminRoutesNeedAServiceRoleToken() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let user = try await client.confirmedSession(email: "ada@example.com")
            let refused = try await client.get("/admin/users", bearer: user.string("access_token"))
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "not_admin")
            let list = try await client.get("/admin/users?page=1&per_page=10", bearer: admin)
            #expect(list.status == .ok)
            #expect((list["users"] as? [[String: Any]])?.count == 1)
            #expect(list.header("X-Total-Count") == "1")
            let created = try await client.post(
                "/admin/users",
                #"{"email":"bob@example.com","password":"correct horse battery","email_confirm":true}"#,
                bearer: admin
            )
            #expect(created.status == .ok)
            #expect(try await client.signIn("bob@example.com").status == .ok)
            let id = try #require(created.string("id"))
            let banned = try await client.send(
                .put,
                "/admin/users/\(id)",
                json: #"{"ban_duration":"24h"}"#,
                bearer: admin
            )
            #expect(banned.status == .ok)
            #expect(try await client.signIn("bob@example.com").errorCode == "user_banned")
            #expect(try await client.send(.delete, "/admin/users/\(id)", bearer: admin).status == .ok)
            #expect(try await client.get("/admin/users/\(id)", bearer: admin).status == .notFound)
        }
    }
}

@Suite("Admin links and invitations")
struct AdminLinkTests {
    @Test func inviteMailsACodeThatSignsTheUserIn() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let invited = try await client.post("/invite", #"{"email":"new@example.com"}"#, bearer: admin)
            #expect(invited.status == .ok)
            #expect(invited.string("invited_at") != nil)
            #expect(
                try await client.post("/invite", #"{"email":"new@example.com"}"#, bearer: admin).errorCode
                    == "email_exists"
            )
            let code = try await client.waitForCode(to: "new@example.com")
            let session = try await client.post(
                "/verify",
                #"{"type":"invite","email":"new@example.com","token":"\#(code)"}"#
            )
            #expect(session.status == .ok)
            #expect(try await client.post("/invite", #"{"email":"x@example.com"}"#).status == .unauthorized)
        }
    }

    @Test func generatedLinksVerifyByTokenHashAndByRedirect() async throws {
        let harness = try await Harness.make { $0.siteURL = "https://app.example.com" }
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let link = try await client.post(
                "/admin/generate_link",
                #"{"type":"signup","email":"ada@example.com","password":"correct horse battery"}"#,
                bearer: admin
            )
            #expect(link.status == .ok)
            for key in ["action_link", "email_otp", "hashed_token", "verification_type", "redirect_to", "id", "email"] {
                #expect(link[key] != nil, "\(key)")
            }
            #expect(await client.mailCount(to: "ada@example.com") == 0, "generate_link sends nothing")
            let hashed = try #require(link.string("hashed_token"))
            let verified = try await client.post("/verify", #"{"type":"signup","token_hash":"\#(hashed)"}"#)
            #expect(verified.status == .ok)
            #expect(try await client.signIn("ada@example.com").status == .ok)

            let recovery = try await client.post(
                "/admin/generate_link",
                #"{"type":"recovery","email":"ada@example.com"}"#,
                bearer: admin
            )
            let redirect = try await client.get(
                "/verify?token=\(try #require(recovery.string("hashed_token")))&type=recovery&redirect_to=https://evil.example.net"
            )
            #expect(redirect.status == .seeOther)
            let location = try #require(redirect.header("Location"))
            #expect(
                location.hasPrefix("https://app.example.com#access_token="),
                "an untrusted redirect_to falls back to the site URL"
            )
            let again = try await client.get(
                "/verify?token=\(try #require(recovery.string("hashed_token")))&type=recovery"
            )
            #expect(again.header("Location")?.contains("error_code=otp_expired") == true)
        }
    }
}

@Suite("Key rotation and claim checks")
struct KeyRotationTests {
    @Test func aTokenFromThePreviousKeyVerifiesUntilTheKeyIsRetired() async throws {
        let first = try await Harness.make()
        defer { first.removeFiles() }
        let box = ReplyBox()
        try await first.live { client in box.reply = try await client.confirmedSession(email: "ada@example.com") }
        let oldToken = try #require(box.reply?.string("access_token"))
        let oldKid = JWTTests.decode(JWTTests.segments(oldToken)[0])["kid"] as? String

        let rotation = try await Harness.make(clock: first.clock, directory: first.directory)
        let newKid = try await SigningKeyAdmin.rotate(
            storage: rotation.server.storage,
            vault: rotation.server.services.vault,
            now: first.clock.now().addingTimeInterval(60)
        )
        try await rotation.server.storage.close()

        let rotated = try await Harness.make(clock: first.clock, directory: first.directory)
        try await rotated.live { client in
            #expect(
                try await client.get("/user", bearer: oldToken).status == .ok,
                "J-11: the previous key still verifies"
            )
            let fresh = try await client.signIn("ada@example.com")
            let kid =
                JWTTests.decode(JWTTests.segments(try #require(fresh.string("access_token")))[0])["kid"] as? String
            #expect(kid == newKid)
            #expect((try await client.get("/.well-known/jwks.json")["keys"] as? [Any])?.count == 2)
        }
        let retiring = try await Harness.make(clock: first.clock, directory: first.directory)
        try await SigningKeyAdmin.retire(kid: try #require(oldKid), storage: retiring.server.storage)
        await #expect(throws: SigningKeyAdmin.RetireError(kid: newKid, reason: .signingKey)) {
            try await SigningKeyAdmin.retire(kid: newKid, storage: retiring.server.storage)
        }
        try await retiring.server.storage.close()

        let retired = try await Harness.make(clock: first.clock, directory: first.directory)
        try await retired.live { client in
            let reply = try await client.get("/user", bearer: oldToken)
            #expect(reply.status == .forbidden, "J-11: after retirement")
            #expect(reply.errorCode == "bad_jwt")
        }
    }

    @Test func correctlySignedTokensWithTheWrongIssuerAudienceOrRoleAreRefused() async throws {
        let secret = String(repeating: "s", count: 40)
        let harness = try await Harness.make { $0.jwtSecret = secret }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let parts = JWTTests.segments(try #require(session.string("access_token")))
            let header = JWTTests.decode(parts[0])
            let payload = JWTTests.decode(parts[1])
            let variants: [(String, Any?)] = [
                ("iss", "https://attacker.example"), ("aud", "other"), ("aud", ["authenticated", "evil"]), ("aud", nil),
            ]
            for (key, value) in variants {
                var changed = payload
                changed[key] = value
                let token = JWTTests.hs256(header: header, payload: changed, key: Data(secret.utf8))
                let reply = try await client.get("/user", bearer: token)
                #expect(reply.status == .forbidden, "J-7 \(key)=\(String(describing: value))")
                #expect(reply.errorCode == "bad_jwt")
            }
            var admin = payload
            admin["role"] = "service_role"
            let forgedAdmin = JWTTests.hs256(header: header, payload: admin, key: Data("not the secret".utf8))
            #expect(try await client.get("/admin/users", bearer: forgedAdmin).status == .forbidden)
        }
    }

    @Test func sessionsEndAtTheirAbsoluteLifetimeEvenWhenActive() async throws {
        let harness = try await Harness.make { $0.sessionLifetime = 3 * 86_400 }
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            var token = try #require(session.string("refresh_token"))
            for _ in 0..<2 {
                clock.advance(by: 86_400)
                token = try #require(try await client.refresh(token).string("refresh_token"))
            }
            clock.advance(by: 86_401)
            #expect(try await client.refresh(token).errorCode == "session_expired")
        }
    }

    @Test func emailChangeIsConfirmedByACodeToTheNewAddress() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let change = try await client.send(
                .put,
                "/user",
                json: #"{"email":"ada@new.example"}"#,
                bearer: session.string("access_token")
            )
            #expect(change.status == .ok)
            #expect(change.string("email") == "ada@example.com", "unchanged until confirmed")
            let first = try await client.waitForCode(to: "ada@new.example")
            // Resend (by the current address) replaces the code, once the spacing has passed.
            harness.clock.advance(by: 61)
            let resend = try await client.post("/resend", #"{"type":"email_change","email":"ada@example.com"}"#)
            #expect(resend.status == .ok)
            try await client.waitForOutbox()
            #expect(await client.mailCount(to: "ada@new.example") == 2)
            let code = try await client.waitForCode(to: "ada@new.example")
            if code != first {
                let stale = try await client.post(
                    "/verify",
                    #"{"type":"email_change","email":"ada@new.example","token":"\#(first)"}"#
                )
                #expect(stale.status == .forbidden, "the replaced code no longer works")
            }
            // GoTrue's secure change: the new address with its code, then the current one with its own.
            let half = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"ada@new.example","token":"\#(code)"}"#
            )
            #expect(half.string("code") == "200")
            let current = try await client.waitForCode(
                to: "ada@example.com",
                subject: "Confirm the change of your e-mail address"
            )
            let verified = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"ada@example.com","token":"\#(current)"}"#
            )
            #expect(verified.status == .ok)
            #expect(verified.user["email"] as? String == "ada@new.example")
        }
    }
}
