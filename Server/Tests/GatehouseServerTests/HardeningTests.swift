import Crypto
import CryptoExtras
import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import GatehouseWebAuthn
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 31, findings 12 to 16 and the refresh parent: the listener's limits, undeclared bodies,
/// answers no cache may keep, replays of refresh tokens, and RSA passkey keys.
@Suite("Hardening")
struct HardeningTests {
    @Test func aBodyWithoutAJSONTypeIsRefusedOnEveryJSONRoute() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            for (path, body) in [
                ("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#),
                ("/otp", #"{"email":"ada@example.com"}"#), ("/recover", #"{"email":"ada@example.com"}"#),
            ] {
                // What a cross-site "simple" request sends: a body with no type, or text/plain.
                let untyped = try await client.client.execute(
                    uri: path,
                    method: .post,
                    headers: [:],
                    body: ByteBuffer(string: body)
                )
                #expect(untyped.status == .unsupportedMediaType, "\(path) read an undeclared body")
                let plain = try await client.post(path, body, headers: ["Content-Type": "text/plain"])
                #expect(plain.status == .unsupportedMediaType)
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(await client.mailCount(to: "ada@example.com") == 0, "nothing was done")
            // Declared JSON works, and a bodiless request needs no type.
            #expect(try await client.post("/otp", #"{"email":"ada@example.com"}"#).status == .ok)
            let session = try await client.confirmedSession(email: "grace@example.com")
            let logout = try await client.client.execute(
                uri: "/logout?scope=local",
                method: .post,
                headers: [.authorization: "Bearer \(session.string("access_token") ?? "")"]
            )
            #expect(logout.status == .noContent)
        }
    }

    @Test func everyAuthAnswerSaysNoStore() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let answers = [
                session, try await client.get("/user", bearer: session.string("access_token")),
                try await client.signIn("ada@example.com", "wrong horse"), try await client.get("/settings"),
                try await client.get("/verify?token=x&type=signup"), try await client.get("/no-such-route"),
                try await client.post("/logout?scope=local", bearer: session.string("access_token")),
            ]
            for answer in answers {
                #expect(answer.header("Cache-Control") == "no-store", "\(answer.status) \(answer.text.prefix(60))")
            }
            #expect(try await client.get("/.well-known/jwks.json").header("Cache-Control") == "public, max-age=600")
        }
    }

    @Test func theDirectParentAnswersWithTheCurrentTokenUntilTheSessionIsIdleTooLong() async throws {
        let harness = try await Harness.make { $0.sessionInactivityTimeout = 7 * 86_400 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let parent = try #require(session.string("refresh_token"))
            let current = try #require(try await client.refresh(parent).string("refresh_token"))
            // The reply was lost; the client retries days later, well past the reuse interval.
            harness.clock.advance(by: 5 * 86_400)
            let retried = try await client.refresh(parent)
            #expect(retried.status == .ok)
            #expect(retried.string("refresh_token") == current, "the current token, nothing minted")
            // Unused past the inactivity limit, the session ends for the parent too.
            harness.clock.advance(by: 3 * 86_400)
            #expect(try await client.refresh(parent).errorCode == "session_expired")
        }
    }

    @Test func eachClientHasAShareOfTheConnections() async throws {
        let harness = try await Harness.make { $0.connections.maxConnectionsPerClient = 3 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let port = try #require(client.client.port)
            // One client opens connections and holds them.
            let hog = try (0..<5).map { _ in try RawConnection(port: port) }
            let closed = await withTaskGroup(of: Bool.self) { group in
                for connection in hog { group.addTask { await connection.waitForClose(within: 5) } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(closed >= 2, "beyond its share, a client's connections are closed at once")
            // Another client (another loopback address) is served meanwhile.
            let other = try RawConnection(port: port, from: "127.0.0.2")
            other.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await other.receive(within: 30).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func theMetricsListenerIsPrivateAndClosesIdleConnections() async throws {
        #expect(ServerConfiguration().metricsHost == "127.0.0.1")
        #expect(try ServerConfiguration(environment: ["GATEHOUSE_METRICS_HOST": "10.0.0.5"]).metricsHost == "10.0.0.5")
        #expect(
            try ServerConfiguration(environment: ["GATEHOUSE_MAX_CONNECTIONS_PER_CLIENT": "7"])
                .connections.maxConnectionsPerClient == 7
        )
        let harness = try await Harness.make {
            $0.metricsPort = 0
            $0.connections.idleTimeout = 2
        }
        defer { harness.removeFiles() }
        let metrics = try #require(harness.server.metricsApplication)
        try await metrics.test(.live) { scraper in
            // Its own connections: the test client's one would idle out too.
            let port = try #require(scraper.port)
            let answer = await HTTPClient().send("GET", URL(string: "http://127.0.0.1:\(port)/metrics")!)
            #expect(answer.status == 200)
            let idle = try RawConnection(port: port)
            #expect(await idle.waitForClose(within: 30), "an idle connection to /metrics is closed")
        }
        try? await harness.server.storage.close()
    }

    @Test func rsaPasskeysNeedTheStandardExponentAndAtLeast2048Bits() throws {
        func coseKey(n: [UInt8], e: [UInt8]) -> CBORValue {
            .map([
                (.integer(1), .integer(3)), (.integer(3), .integer(-257)), (.integer(-1), .bytes(n)),
                (.integer(-2), .bytes(e)),
            ])
        }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try key.publicKey.getKeyPrimitives()
        let modulus = Array(primitives.modulus)
        #expect(throws: Never.self) { try COSEKey(coseKey(n: modulus, e: [0x01, 0x00, 0x01])) }
        #expect(throws: WebAuthnFailure.self) { try COSEKey(coseKey(n: modulus, e: [0x03])) }
        #expect(throws: WebAuthnFailure.self) { try COSEKey(coseKey(n: modulus, e: [0x01, 0x00, 0x00, 0x01])) }
        #expect(throws: WebAuthnFailure.self) {
            try COSEKey(coseKey(n: Array(modulus.prefix(128)), e: [0x01, 0x00, 0x01]))
        }
        #expect(COSEKey.bitCount(of: [0x00, 0x80, 0x00]) == 16)
    }
}
