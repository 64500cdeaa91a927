import Foundation
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: a Supabase project's service key (HS256 under the project's JWT secret) keeps
/// working on the admin API after a move; other roles and other uses are refused.
@Suite("Supabase project keys")
struct ProjectKeyTests {
    static let secret = "super-secret-jwt-token-with-at-least-32-characters-long"

    static func projectKey(
        role: String,
        issuedAt: Int,
        lifetime: Int = 10 * 365 * 86_400,
        key: String = secret
    ) -> String {
        JWTTests.hs256(
            header: ["alg": "HS256", "typ": "JWT"],
            payload: [
                "iss": "supabase", "ref": "abcdefghijklmnopqrst", "role": role, "iat": issuedAt,
                "exp": issuedAt + lifetime,
            ],
            key: Data(key.utf8)
        )
    }

    @Test func aProjectServiceKeyIsAcceptedOnTheAdminAPIOnly() async throws {
        let harness = try await Harness.make { $0.jwtSecret = Self.secret }
        defer { harness.removeFiles() }
        let now = Int(harness.clock.now().timeIntervalSince1970)
        try await harness.live { client in
            let service = Self.projectKey(role: "service_role", issuedAt: now - 86_400)
            #expect(try await client.get("/admin/users", bearer: service).status == .ok)
            // The anon key, or any other role, is no admin.
            let anon = try await client.get("/admin/users", bearer: Self.projectKey(role: "anon", issuedAt: now))
            #expect(anon.status == .forbidden && anon.errorCode == "not_admin")
            let admin = Self.projectKey(role: "supabase_admin", issuedAt: now)
            #expect(try await client.get("/admin/users", bearer: admin).status == .forbidden)
            // Nor is the service key a user's token.
            #expect(try await client.get("/user", bearer: service).status == .forbidden)
            // Expired, or signed under another secret: refused.
            let expired = Self.projectKey(role: "service_role", issuedAt: now - 7200, lifetime: 3600)
            #expect(try await client.get("/admin/users", bearer: expired).errorCode == "bad_jwt")
            let foreign = Self.projectKey(role: "service_role", issuedAt: now, key: String(repeating: "x", count: 40))
            #expect(try await client.get("/admin/users", bearer: foreign).errorCode == "bad_jwt")
        }
    }

    @Test func withoutAJWTSecretNoProjectKeyIsAccepted() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let now = Int(harness.clock.now().timeIntervalSince1970)
        try await harness.live { client in
            let reply = try await client.get(
                "/admin/users",
                bearer: Self.projectKey(role: "service_role", issuedAt: now)
            )
            #expect(reply.status == .forbidden && reply.errorCode == "bad_jwt")
        }
    }

    @Test func postgresTLSIsRequiredBeyondLoopback() throws {
        #expect(try PostgresSettings(url: "postgres://u:p@db.internal:5432/auth").tls == .require)
        #expect(try PostgresSettings(url: "postgres://u:p@10.0.0.5/auth").tls == .require)
        #expect(try PostgresSettings(url: "postgres://u:p@127.0.0.1/auth").tls == .prefer)
        #expect(try PostgresSettings(url: "postgres://u:p@localhost/auth").tls == .prefer)
        #expect(try PostgresSettings(url: "postgres://u:p@[::1]/auth").tls == .prefer)
        #expect(try PostgresSettings(url: "postgres://u:p@db.internal/auth?sslmode=disable").tls == .disable)
    }
}
