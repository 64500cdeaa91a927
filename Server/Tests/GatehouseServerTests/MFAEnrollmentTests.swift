import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import HTTPTypes
import Testing

/// `POST /factors` and the factor list on `GET /user`, over HTTP.
@Suite("MFA enrolment")
struct MFAEnrollmentTests {
    @Test func enrolmentAnswersGoTruesShapeAndTheSecretYieldsTheCodes() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = session.string("access_token")
            let enrolled = try await client.enroll(token, name: "Ada's phone")
            #expect(enrolled.reply.status == .ok)
            #expect(UUID(uuidString: enrolled.id) != nil)
            #expect(enrolled.reply.string("type") == "totp")
            #expect(enrolled.reply.string("friendly_name") == "Ada's phone")
            let totp = try #require(enrolled.reply["totp"] as? [String: Any])
            let secret = try #require(totp["secret"] as? String)
            #expect(secret.count == 40 && secret.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) })
            #expect(enrolled.app.key.count == 25, "175 bits of key")
            let uri = try #require(totp["uri"] as? String)
            #expect(uri.hasPrefix("otpauth://totp/localhost:ada@example.com?"))
            #expect(uri.contains("secret=\(secret)") && uri.contains("issuer=localhost"))
            let svg = try #require(totp["qr_code"] as? String)
            #expect(svg.contains("<svg") && svg.hasSuffix("</svg>"))

            let user = try await client.get("/user", bearer: token)
            let factors = try #require(user["factors"] as? [[String: Any]])
            #expect(factors.count == 1)
            #expect(factors.first?["id"] as? String == enrolled.id)
            #expect(factors.first?["status"] as? String == "unverified")
            #expect(factors.first?["factor_type"] as? String == "totp")
            #expect(factors.first?["friendly_name"] as? String == "Ada's phone")
            #expect(factors.first?["secret"] == nil, "the secret is shown once, at enrolment")

            // The first code from an app that scanned the secret verifies the factor.
            let verified = try await client.challengeAndVerify(
                enrolled.id,
                code: enrolled.app.code(at: clock.now()),
                bearer: token
            )
            #expect(verified.status == .ok)
            let status = (verified.user["factors"] as? [[String: Any]])?.first?["status"] as? String
            #expect(status == "verified")
        }
    }

    @Test func theIssuerIsTheRequestsOrTheSitesHost() async throws {
        let harness = try await Harness.make { $0.siteURL = "https://app.example.com/welcome" }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            let site = try await client.enroll(token, name: "a")
            let siteURI = (site.reply["totp"] as? [String: Any])?["uri"] as? String ?? ""
            #expect(siteURI.hasPrefix("otpauth://totp/app.example.com:ada@example.com?"))
            let named = try await client.post(
                "/factors",
                #"{"factor_type":"totp","friendly_name":"b","issuer":"Acme Corp"}"#,
                bearer: token
            )
            let uri = (named["totp"] as? [String: Any])?["uri"] as? String ?? ""
            #expect(uri.hasPrefix("otpauth://totp/Acme%20Corp:ada@example.com?"), "\(uri)")
            for bad in [#""issuer":"a:b""#, #""issuer":"""#, #""issuer":"\#(String(repeating: "x", count: 65))""#] {
                let reply = try await client.post("/factors", #"{"factor_type":"totp",\#(bad)}"#, bearer: token)
                #expect(reply.status == .badRequest && reply.errorCode == "validation_failed", "\(bad)")
            }
            // An issuer within the document's 64 characters whose link, with this address, does
            // not fit the largest QR code (each "€" is nine bytes percent-encoded): 422 with its
            // own code, not "malformed", since the same issuer fits a shorter address.
            let wide = String(repeating: "€", count: 60)
            let tooLong = try await client.post("/factors", #"{"factor_type":"totp","issuer":"\#(wide)"}"#, bearer: token)
            #expect(tooLong.status == .unprocessableContent, "\(tooLong.text)")
            #expect(tooLong.errorCode == "mfa_enrollment_link_too_long")
        }
    }

    @Test func tenFactorsAtMostNamesUniqueAndUnverifiedOnesLapseAfter300Seconds() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let clock = harness.clock
        try await harness.live { client in
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            let f0 = try await client.enroll(token, name: "f0")
            #expect(f0.reply.status == .ok)
            let conflict = try await client.enroll(token, name: "f0")
            #expect(conflict.reply.status == .unprocessableContent)
            #expect(conflict.reply.errorCode == "mfa_factor_name_conflict")
            for index in 1..<10 { #expect(try await client.enroll(token, name: "f\(index)").reply.status == .ok) }
            let eleventh = try await client.enroll(token, name: "f10")
            #expect(eleventh.reply.status == .unprocessableContent)
            #expect(eleventh.reply.errorCode == "too_many_enrolled_mfa_factors")

            clock.advance(by: 299)
            #expect((try await client.get("/user", bearer: token)["factors"] as? [Any])?.count == 10)
            clock.advance(by: 2)
            // Lapsed: no longer listed, not challengeable, and no longer counted.
            #expect(try await client.get("/user", bearer: token)["factors"] == nil)
            let lapsed = try await client.challenge(f0.id, bearer: token)
            #expect(lapsed.status == .notFound)
            let again = try await client.enroll(token, name: "f0")
            #expect(again.reply.status == .ok, "the lapsed f0 no longer holds its name")
            let challenge = try await client.challenge(again.id, bearer: token)
            #expect(challenge.status == .ok)
            clock.advance(by: 301)
            let late = try await client.challenge(again.id, bearer: token)
            #expect(late.status == .notFound && late.errorCode == "mfa_factor_not_found")
        }
    }

    @Test func concurrentEnrolmentsNeverPassTheCap() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<16 { group.addTask { try await client.enroll(token, name: "n\(index)").reply.status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 10)
            #expect(statuses.filter { $0 == .unprocessableContent }.count == 6)
            #expect((try await client.get("/user", bearer: token)["factors"] as? [Any])?.count == 10)
        }
    }

    @Test func guestsOtherTypesAndMissingTokensAreRefused() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}").string("access_token")
            let refused = try await client.enroll(guest)
            #expect(refused.reply.status == .forbidden && refused.reply.errorCode == "no_authorization")
            let noToken = try await client.enroll(nil)
            #expect(noToken.reply.status == .unauthorized && noToken.reply.errorCode == "no_authorization")
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            for type in ["phone", "webauthn", "TOTP", ""] {
                let reply = try await client.post("/factors", #"{"factor_type":"\#(type)"}"#, bearer: token)
                #expect(reply.status == .badRequest && reply.errorCode == "validation_failed", "\(type)")
            }
            let control = try await client.post(
                "/factors",
                #"{"factor_type":"totp","friendly_name":"a\nb"}"#,
                bearer: token
            )
            #expect(control.status == .badRequest)
            let huge = try await client.post(
                "/factors",
                #"{"factor_type":"totp","friendly_name":"\#(String(repeating: "x", count: 5000))"}"#,
                bearer: token
            )
            #expect(huge.status == .badRequest)
        }
    }

    @Test func aSecondFactorNeedsAnAAL2Session() async throws {
        try await Harness.make().withVerifiedFactor { scene in
            let (client, aal2) = (scene.client, scene.session)
            let aal1 = try await client.signIn("ada@example.com")
            let refused = try await client.enroll(aal1.string("access_token"), name: "second")
            #expect(refused.reply.status == .forbidden)
            #expect(refused.reply.errorCode == "insufficient_aal")
            let allowed = try await client.enroll(aal2.string("access_token"), name: "second")
            #expect(allowed.reply.status == .ok)
        }
    }

    @Test func secretsAreSealedAtRest() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let secrets = Collected()
        try await harness.live { client in
            let token = try await client.confirmedSession(email: "ada@example.com").string("access_token")
            for index in 0..<3 {
                let enrolled = try await client.enroll(token, name: "p\(index)")
                secrets.append((enrolled.reply["totp"] as? [String: Any])?["secret"] as? String ?? "")
            }
        }
        let text = try await harness.databaseText()
        #expect(secrets.all.count == 3)
        for secret in secrets.all { #expect(!secret.isEmpty && !text.contains(secret)) }
    }
}

/// Values a live test's closure hands back.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []

    func append(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
}
