import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: behind a proxy each client has its own rate-limit bucket, a client cannot pick
/// its bucket by writing the header itself, IPv6 clients count by /64, browsers get CORS from
/// allowed origins only, and a cross-site `text/plain` body reaches no JSON route.
@Suite("Behind a proxy")
struct ProxyTests {
    static let proxyRule = ClientAddress(
        trustedProxies: [CIDR("10.0.0.0/8")!, CIDR("::1")!],
        header: "X-Forwarded-For"
    )

    @Test func theClientIsTheRightmostHopNoTrustedProxyWrote() {
        let rule = Self.proxyRule
        #expect(rule.derive(peer: "10.0.0.1", headerValues: ["198.51.100.7"]) == "198.51.100.7")
        #expect(rule.derive(peer: "10.0.0.1", headerValues: ["1.1.1.1, 198.51.100.7, 10.0.0.2"]) == "198.51.100.7")
        #expect(rule.derive(peer: "10.0.0.1", headerValues: ["1.1.1.1", "198.51.100.7"]) == "198.51.100.7")
        #expect(rule.derive(peer: "10.0.0.1", headerValues: ["198.51.100.7, not-an-address"]) == "10.0.0.1")
        #expect(rule.derive(peer: "10.0.0.1", headerValues: []) == "10.0.0.1")
        #expect(rule.derive(peer: "10.0.0.1", headerValues: ["10.0.0.3"]) == "10.0.0.3")
        // An untrusted peer's header is ignored.
        #expect(rule.derive(peer: "203.0.113.9", headerValues: ["198.51.100.7"]) == "203.0.113.9")
        #expect(rule.derive(peer: "::1", headerValues: ["2001:db8::1"]) == "2001:db8::1")
        // No header configured: always the socket.
        let none = ClientAddress(trustedProxies: [CIDR("10.0.0.0/8")!], header: nil)
        #expect(none.derive(peer: "10.0.0.1", headerValues: ["198.51.100.7"]) == "10.0.0.1")
    }

    @Test func ipv6ClientsAreKeyedByTheirSlash64() {
        #expect(
            ClientAddress.limitKey("2001:db8:1:2:aaaa::1") == ClientAddress.limitKey("2001:db8:1:2:bbbb:cccc:dddd:2")
        )
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") != ClientAddress.limitKey("2001:db8:1:3::1"))
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.limitKey("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(ClientAddress.limitKey("192.0.2.1") == "192.0.2.1")
        #expect(ClientAddress.limitKey("server") == "server")
        #expect(ClientAddress.limitKey("ada@example.com") == "ada@example.com")
        #expect(CIDR("10.0.0.0/33") == nil && CIDR("10.0.0.0/x") == nil && CIDR("example.com") == nil)
    }

    @Test func eachClientBehindTheProxyHasItsOwnBucket() async throws {
        let harness = try await Harness.make {
            $0.trustedProxies = [CIDR("127.0.0.1")!, CIDR("::1")!]
            $0.rateLimitHeader = "X-Forwarded-For"
            $0.rateLimits.anonymous = 2
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let expected: [(String, HTTPResponse.Status)] = [
                ("198.51.100.1", .ok), ("198.51.100.1", .ok), ("198.51.100.1", .tooManyRequests),
                // Another client behind the same proxy is not blocked by the first.
                ("198.51.100.2", .ok),
                // The first cannot escape by writing its own hop to the left.
                ("203.0.113.50, 198.51.100.1", .tooManyRequests),
                // IPv6 addresses of one /64 share a bucket.
                ("2001:db8:1:2::1", .ok), ("2001:db8:1:2::ffff", .ok), ("2001:db8:1:2:abcd::9", .tooManyRequests),
                ("2001:db8:1:3::1", .ok),
            ]
            for (forwardedFor, status) in expected {
                let reply = try await client.post("/signup", "{}", headers: ["X-Forwarded-For": forwardedFor])
                #expect(reply.status == status, "\(forwardedFor)")
            }
            let audit = try await harness.server.storage.read { try await $0.auditEntries(limit: 100) }
            #expect(audit.contains { $0.ip == "198.51.100.2" }, "the audit log records the derived address")
            #expect(!audit.contains { $0.ip == "127.0.0.1" })
        }
    }

    @Test func withoutATrustedProxyTheHeaderIsIgnored() async throws {
        let harness = try await Harness.make { $0.rateLimits.anonymous = 2 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            for (index, spoofed) in ["198.51.100.1", "198.51.100.2", "198.51.100.3"].enumerated() {
                let reply = try await client.post("/signup", "{}", headers: ["X-Forwarded-For": spoofed])
                #expect(reply.status == (index < 2 ? .ok : .tooManyRequests))
            }
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_RATE_LIMIT_HEADER": "X-Forwarded-For"])
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_TRUSTED_PROXIES": "10.0.0.0/8, proxy.internal"])
        }
        let parsed = try ServerConfiguration(environment: [
            "GATEHOUSE_TRUSTED_PROXIES": "10.0.0.0/8, fd00::/8", "GATEHOUSE_RATE_LIMIT_HEADER": "X-Forwarded-For",
        ])
        #expect(parsed.trustedProxyNetworks == ["10.0.0.0/8", "fd00::/8"])
    }

    @Test func corsAnswersAllowedOriginsOnly() async throws {
        let closed = try await Harness.make()
        defer { closed.removeFiles() }
        try await closed.live { client in
            let preflight = try await client.send(
                .options,
                "/signup",
                headers: ["Origin": "https://app.example.com", "Access-Control-Request-Method": "POST"]
            )
            #expect(preflight.status == .noContent)
            #expect(preflight.header("Access-Control-Allow-Origin") == nil, "default: no origin allowed")
        }

        let open = try await Harness.make { $0.corsAllowedOrigins = ["https://app.example.com"] }
        defer { open.removeFiles() }
        try await open.live { client in
            let preflight = try await client.send(
                .options,
                "/token?grant_type=password",
                headers: [
                    "Origin": "https://app.example.com", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "apikey, authorization, content-type, x-client-info",
                ]
            )
            #expect(preflight.status == .noContent)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example.com")
            let allowed = preflight.header("Access-Control-Allow-Headers") ?? ""
            for header in ["apikey", "authorization", "content-type", "x-client-info", "x-supabase-api-version"] {
                #expect(allowed.contains(header), "\(header)")
            }
            let settings = try await client.send(.get, "/settings", headers: ["Origin": "https://app.example.com"])
            #expect(settings.header("Access-Control-Allow-Origin") == "https://app.example.com")
            let failed = try await client.send(.get, "/user", headers: ["Origin": "https://app.example.com"])
            #expect(failed.status == .unauthorized)
            #expect(failed.header("Access-Control-Allow-Origin") == "https://app.example.com", "errors too")
            let evil = try await client.send(.get, "/settings", headers: ["Origin": "https://evil.example"])
            #expect(evil.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func aTextPlainBodyIsRefusedOnJSONRoutes() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let body = #"{"email":"ada@example.com","password":"correct horse battery"}"#
            for type in [
                "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data",
            ] {
                let reply = try await client.send(.post, "/signup", json: body, headers: ["Content-Type": type])
                #expect(reply.status == .unsupportedMediaType, "\(type)")
            }
            #expect(try await client.signIn("ada@example.com").status == .badRequest, "no account was made")
            let json = try await client.send(
                .post,
                "/signup",
                json: body,
                headers: ["Content-Type": "application/json; charset=utf-8"]
            )
            #expect(json.status == .ok)
        }
    }
}
