import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

@Suite("Protocol surface: envelopes, bad input, limits, metadata")
struct ProtocolTests {
    @Test func errorsUseTheLegacyEnvelopeOrThe20240101OneWithItsHeaderEchoed() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let legacy = try await client.signIn("nobody@example.com", "whatever pass")
            #expect(legacy["code"] as? Int == 400)
            #expect(legacy.string("error_code") == "invalid_credentials")
            #expect(legacy.string("msg") != nil)
            #expect(legacy.header("X-Supabase-Api-Version") == nil)

            let modern = try await client.post(
                "/token?grant_type=password",
                #"{"email":"nobody@example.com","password":"whatever pass"}"#,
                headers: ["X-Supabase-Api-Version": "2024-01-01"]
            )
            #expect(modern.string("code") == "invalid_credentials")
            #expect(modern.string("message") != nil)
            #expect(modern.header("X-Supabase-Api-Version") == "2024-01-01")
            #expect(modern.header("x-sb-error-code") == "invalid_credentials")
        }
    }

    @Test func badInputIsA4xxNeverA5xx() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let cases: [(String, String, HTTPResponse.Status, String?)] = [
                ("/signup", #"{"email":"#, .badRequest, "bad_json"),
                ("/signup", "not json at all", .badRequest, "bad_json"),
                ("/signup", #"{"email":42,"password":"correct horse battery"}"#, .badRequest, "validation_failed"),
                (
                    "/signup", #"{"email":"not-an-address","password":"correct horse battery"}"#, .badRequest,
                    "validation_failed"
                ),
                (
                    "/token?grant_type=password", #"{"email":"a@b.co","password":["x"]}"#, .badRequest,
                    "validation_failed"
                ),
                ("/token?grant_type=refresh_token", #"{}"#, .badRequest, "validation_failed"),
                ("/token?grant_type=magic", #"{}"#, .badRequest, "invalid_credentials"),
                (
                    "/verify", #"{"type":"nonsense","email":"a@b.co","token":"123456"}"#, .badRequest,
                    "validation_failed"
                ),
                ("/otp", #"{"email":null}"#, .badRequest, "validation_failed"),
                ("/signup", "[1,2,3]", .badRequest, nil),
            ]
            for (path, body, status, code) in cases {
                let reply = try await client.post(path, body)
                #expect(reply.status == status, "\(path) \(body.prefix(30)): \(reply.status) \(reply.text)")
                if let code { #expect(reply.errorCode == code, "\(path) \(body.prefix(30))") }
            }
            let huge = try await client.post(
                "/signup",
                #"{"email":"a@b.co","password":""# + String(repeating: "x", count: 1 << 20) + #""}"#
            )
            #expect(huge.status == .contentTooLarge)
            #expect(huge.errorCode == "request_entity_too_large")
            #expect(try await client.get("/no/such/route").status == .notFound)
            #expect(try await client.get("/no/such/route").errorCode == "not_found")
            #expect(try await client.get("/user").status == .unauthorized)
            #expect(try await client.get("/user").errorCode == "no_authorization")
        }
    }

    @Test func anonymousSignUpsAreRateLimitedPerAddress() async throws {
        let harness = try await Harness.make { $0.rateLimits.anonymous = 3 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            for _ in 0..<3 { #expect(try await client.post("/signup", "{}").status == .ok) }
            let limited = try await client.post("/signup", "{}")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "over_request_rate_limit")
            #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
        }
    }

    @Test func failedPasswordsPerAccountAreLimited() async throws {
        let harness = try await Harness.make {
            $0.mailerAutoconfirm = true
            $0.rateLimits.failedPasswordsPerAccount = 3
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            for _ in 0..<3 {
                #expect(try await client.signIn("ada@example.com", "wrong guess").errorCode == "invalid_credentials")
            }
            let limited = try await client.signIn("ada@example.com")
            #expect(limited.status == .tooManyRequests, "even the right password waits until the window passes")
        }
    }

    @Test func anonymousSignInCanBeDisabled() async throws {
        let harness = try await Harness.make { $0.anonymousUsers = false }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let reply = try await client.post("/signup", "{}")
            #expect(reply.status == .unprocessableContent)
            #expect(reply.errorCode == "anonymous_provider_disabled")
            let settings = try await client.get("/settings")
            #expect((settings["external"] as? [String: Any])?["anonymous_users"] as? Bool == false)
        }
    }

    @Test func settingsReportAppleAndGoogleWhenTheirClientIDsAreConfigured() async throws {
        for (apple, google) in [([], []), (["com.example.app"], []), ([], ["web.apps.googleusercontent.com"])] {
            let harness = try await Harness.make {
                $0.apple.clientIDs = apple
                $0.google.clientIDs = google
            }
            defer { harness.removeFiles() }
            try await harness.live { client in
                let external = try await client.get("/settings")["external"] as? [String: Any]
                #expect(external?["apple"] as? Bool == !apple.isEmpty, "\(apple)")
                #expect(external?["google"] as? Bool == !google.isEmpty, "\(google)")
            }
        }
    }

    @Test func healthAndSettingsAnswer() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let health = try await client.get("/health")
            #expect(health.status == .ok && health.string("name") == "Gatehouse")
            let settings = try await client.get("/settings")
            #expect(settings["mailer_autoconfirm"] as? Bool == false)
            #expect((settings["external"] as? [String: Any])?["email"] as? Bool == true)
        }
    }

    @Test(.enabled(if: !TestDatabase.isPostgres, "SQLite only")) func sqliteRunsInWALWithFullSync() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = try #require(harness.server.storage as? SQLiteStorage)
        #expect(try await storage.pragma("journal_mode") == "wal")
        #expect(try await storage.pragma("synchronous") == "2", "2 is FULL")
        #expect(try await storage.pragma("foreign_keys") == "1")
        // A page cache that holds a million users' indexes, on the writer and on every reader.
        #expect(try await storage.pragma("cache_size") == "-131072")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-readers-\(UUID()).db")
        defer { try? FileManager.default.removeItem(at: file) }
        let readers = try SQLiteReaderPool.open(path: file.path, count: 3)
        // Three leases at once: three different connections.
        let sizes = try await readers.withConnection { first in
            try await readers.withConnection { second in
                try await readers.withConnection { third in
                    try [first, second, third].map { try $0.rows("PRAGMA cache_size").first?.values.first }
                }
            }
        }
        readers.close()
        #expect(sizes == [.integer(-131_072), .integer(-131_072), .integer(-131_072)])
        try await storage.migrate()  // idempotent
        try await storage.close()
    }

    @Test func theAuditLogRecordsSignInsFailuresRefreshesAndLogouts() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            _ = try await client.signIn("ada@example.com", "wrong guess")
            _ = try await client.refresh(try #require(session.string("refresh_token")))
            _ = try await client.post("/logout", bearer: session.string("access_token"))
            let actions = Set(try await storage.transaction { try await $0.auditEntries(limit: 50) }.map(\.action))
            #expect(
                actions.isSuperset(of: [.userSignedUp, .verified, .loginFailed, .tokenRefreshed, .logout]),
                "\(actions)"
            )
        }
    }

    @Test func configurationRejectsBadValuesNamingTheVariable() {
        #expect(
            throws: ConfigurationError(
                variable: "GATEHOUSE_PORT",
                problem: "must be a whole number from 0 to 65535, not “http”"
            )
        ) {
            try ServerConfiguration(environment: ["GATEHOUSE_PORT": "http"])
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_JWT_SECRET": "short"])
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "maybe"])
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_DATABASE_URL": "mysql://x"])
        }
        let parsed = try? ServerConfiguration(environment: [
            "GATEHOUSE_DATABASE_URL": "sqlite:///tmp/x.sqlite", "GATEHOUSE_RATE_LIMIT_TOKEN": "7",
            "GATEHOUSE_JWT_EXP": "120", "GATEHOUSE_RATE_LIMIT_PASSKEY": "9",
        ])
        #expect(parsed?.database == .sqliteFile("/tmp/x.sqlite"))
        #expect(parsed?.rateLimits.token == 7)
        #expect(parsed?.rateLimits.passkey == 9)
        #expect(parsed?.jwtExpiry == 120)
    }
    @Test func postgresSettingsComeFromTheURLAndPoolSize() throws {
        let configuration = try ServerConfiguration(environment: [
            "GATEHOUSE_DATABASE_URL": "postgres://auth:p%40ss@db.internal:6543/gatehouse?sslmode=require",
            "GATEHOUSE_DATABASE_POOL_SIZE": "32",
        ])
        #expect(
            configuration.database
                == .postgres(
                    PostgresSettings(
                        host: "db.internal",
                        port: 6543,
                        username: "auth",
                        password: "p@ss",
                        database: "gatehouse",
                        tls: .require,
                        poolSize: 32
                    )
                )
        )
        for bad in [
            "postgres://db.internal/gatehouse", "postgres://auth@db.internal", "postgres://a@h/d?sslmode=maybe",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try ServerConfiguration(environment: ["GATEHOUSE_DATABASE_URL": bad])
            }
        }
        #expect(throws: ConfigurationError.self, "the pool size is PostgreSQL's") {
            try ServerConfiguration(environment: ["GATEHOUSE_DATABASE_POOL_SIZE": "4"])
        }
        // Instances on one database must share the secret: no secret file beside a URL.
        var shared = configuration
        shared.serverSecret = nil
        #expect(throws: ConfigurationError.self) { try ServerDatabase.serverSecret(for: shared) }
        #expect(PostgresStatement.numberedPlaceholders("a = ? AND b IN (?, ?)") == "a = $1 AND b IN ($2, $3)")
    }
}
