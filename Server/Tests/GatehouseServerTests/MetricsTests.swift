import Foundation
import GatehouseServerSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 19: `GET /metrics` on `GATEHOUSE_METRICS_PORT`, after a scripted flow, has the auth
/// counters and histograms, and no label carries a user id, an address or a token.
@Suite("Metrics")
struct MetricsTests {
    /// Every label value of a Prometheus text exposition.
    static func labelValues(_ exposition: String) -> [String] {
        var values: [String] = []
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            guard let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}") else { continue }
            var rest = line[line.index(after: open)..<close]
            while let quote = rest.firstIndex(of: "\"") {
                let start = rest.index(after: quote)
                guard let end = rest[start...].firstIndex(of: "\"") else { break }
                values.append(String(rest[start..<end]))
                rest = rest[rest.index(after: end)...]
            }
        }
        return values
    }

    /// The value of the sample `name{labels}` (labels in the exposition's order), or nil.
    static func sample(_ exposition: String, _ series: String) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test func aScriptedFlowShowsInTheCountersWithoutIdsAddressesOrTokens() async throws {
        let harness = try await Harness.make {
            $0.metricsPort = 0
            $0.rateLimits.verify = 4
            PasskeyTests.enabled(&$0)
        }
        defer { harness.removeFiles() }
        let clock = harness.clock
        let metrics = try #require(harness.server.metricsApplication)
        let email = "metrics-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try await harness.live { client in
            var secrets: [String] = [email]
            // Sign-up (a mailed code), confirmation, sign-ins right and wrong.
            let session = try await client.confirmedSession(email: email)
            let access = try #require(session.string("access_token"))
            let refresh = try #require(session.string("refresh_token"))
            let userID = try #require(session.user["id"] as? String)
            secrets += [access, refresh, userID]
            let signedIn = try await client.signIn(email)
            #expect(signedIn.status == .ok)
            let second = try #require(signedIn.string("access_token"))
            secrets.append(second)
            #expect(try await client.signIn(email, "wrong horse battery").errorCode == "invalid_credentials")
            // Refreshes: rotated, then the parent again.
            let rotated = try await client.refresh(refresh)
            secrets += [rotated.string("refresh_token") ?? "", rotated.string("access_token") ?? ""]
            clock.advance(by: 60)
            #expect(try await client.refresh(refresh).status == .ok)
            // The child rotates on; the first token outside the reuse interval: theft.
            let child = try #require(rotated.string("refresh_token"))
            #expect(try await client.refresh(child).status == .ok)
            clock.advance(by: 30)
            #expect(try await client.refresh(refresh).errorCode == "refresh_token_already_used")
            // A second factor (issue 16), on the second session (the theft above ended the first):
            // one wrong code, then the right one.
            let factor = try await client.enroll(second)
            let challenge = try #require(try await client.challenge(factor.id, bearer: second).string("id"))
            let wrongCode = try await client.verify(factor.id, challenge: challenge, code: "000000", bearer: second)
            #expect(wrongCode.status != .ok)
            let retry = try #require(try await client.challenge(factor.id, bearer: second).string("id"))
            let code = factor.app.code(at: clock.now())
            #expect(try await client.verify(factor.id, challenge: retry, code: code, bearer: second).status == .ok)
            // Anonymous and admin sign-ups.
            let anonymous = try await client.post("/signup", "{}")
            secrets.append(anonymous.string("access_token") ?? "")
            let admin = try await harness.server.serviceRoleToken()
            secrets.append(admin)
            let created = try await client.post(
                "/admin/users",
                #"{"email":"created-\#(UUID().uuidString.prefix(6))@example.com","password":"correct horse battery"}"#,
                bearer: admin
            )
            #expect(created.status == .ok)
            secrets.append(created.string("id") ?? "")
            // Passkey verifications (issue 17), refused: a sign-in with a challenge never issued,
            // and a registration (from an AAL1 token of a user with a verified factor, with a
            // challenge never issued).
            let noChallenge = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(UUID().uuidString)","credential":\#(PasskeyTests.junkCredential)}"#
            )
            #expect(noChallenge.errorCode == "webauthn_challenge_not_found")
            let registration = try await client.post(
                "/passkeys/registration/verify",
                #"{"challenge_id":"x","credential":\#(PasskeyTests.junkCredential)}"#,
                bearer: second
            )
            #expect(registration.status.code >= 400 && registration.status.code < 500)
            // Wrong codes until the verify limit refuses.
            for _ in 0..<6 {
                _ = try await client.post("/verify", #"{"type":"email","email":"\#(email)","token":"000000"}"#)
            }

            let flowSecrets = secrets
            try await metrics.test(.live) { scraper in
                let text = try await scraper.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                    return String(buffer: response.body)
                }
                try Self.check(text, secrets: flowSecrets)
            }
        }
    }

    static func check(_ text: String, secrets: [String]) throws {
        let expected = [
            #"gatehouse_sign_ins_total{method="password",outcome="success"}"#,
            #"gatehouse_sign_ins_total{method="password",outcome="invalid_credentials"}"#,
            #"gatehouse_sign_ups_total{kind="password"}"#,
            #"gatehouse_sign_ups_total{kind="anonymous"}"#,
            #"gatehouse_sign_ups_total{kind="admin"}"#,
            #"gatehouse_refreshes_total{outcome="rotated"}"#,
            #"gatehouse_refreshes_total{outcome="parent_replay"}"#,
            #"gatehouse_refreshes_total{outcome="theft_detected"}"#,
            #"gatehouse_codes_sent_total{purpose="signup"}"#,
            #"gatehouse_codes_verified_total"#,
            #"gatehouse_codes_failed_total{outcome="otp_expired"}"#,
            #"gatehouse_rate_limit_refusals_total{bucket="verify"}"#,
            #"gatehouse_mfa_verifications_total{factor="totp",outcome="success"}"#,
            #"gatehouse_mfa_verifications_total{factor="totp",outcome="mfa_verification_failed"}"#,
            #"gatehouse_passkey_verifications_total{ceremony="authentication",outcome="webauthn_challenge_not_found"}"#,
            #"gatehouse_sign_ins_total{method="passkey",outcome="webauthn_challenge_not_found"}"#,
            #"gatehouse_mail_deliveries_total{outcome="sent"}"#,
            #"gatehouse_bcrypt_queue_wait_seconds_count"#,
            #"gatehouse_active_sessions"#,
            #"http_server_requests_total{http_route="/token",http_request_method="POST",http_response_status_code="200"}"#,
        ]
        for series in expected {
            let value = Self.sample(text, series)
            let shown = value.map { "\($0)" } ?? "absent"
            #expect((value ?? 0) >= 1, "\(series) = \(shown)")
        }
        #expect(
            text.contains(#"gatehouse_passkey_verifications_total{ceremony="registration",outcome=""#),
            "a refused passkey registration is counted"
        )
        #expect(!text.contains(#"outcome="unexpected_failure""#), "every refusal counted has its code")
        let database = TestDatabase.isPostgres ? "postgres" : "sqlite"
        #expect(
            text.contains(#"gatehouse_db_transaction_duration_seconds_count{database="\#(database)""#),
            "transaction time on \(database)"
        )
        if !TestDatabase.isPostgres {
            #expect((Self.sample(text, "gatehouse_db_group_commit_batch_size_count") ?? 0) >= 1)
        }
        // No label value is an address, an id or a token: every label of the process
        // (other suites run beside this one) is checked, not only this flow's.
        let values = Self.labelValues(text)
        #expect(values.count > 20)
        let uuid = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/
        for value in values {
            #expect(!value.contains("@"), "an address in a label: \(value)")
            #expect(value.firstMatch(of: uuid) == nil, "an id in a label: \(value)")
            #expect(value.count <= 64, "a long label value: \(value)")
            #expect(!value.hasPrefix("eyJ") && !value.hasPrefix("gh1_"), "a token in a label: \(value)")
        }
        for secret in secrets where !secret.isEmpty {
            #expect(!text.contains(secret), "the flow's \(secret.prefix(6))… is in /metrics")
        }
    }
}
