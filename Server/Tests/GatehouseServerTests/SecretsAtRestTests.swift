import Crypto
import Foundation
import GatehouseCore
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import JWTKit
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: what a backup, a dump or a readable file gives away: no usable private key, no
/// file open to others, no password in the log.
@Suite("Secrets at rest")
struct SecretsAtRestTests {
    /// The settings a harness in `directory` uses, without starting a server.
    static func configuration(for directory: URL) async throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.database = try await TestDatabase.database(for: directory)
        configuration.serverSecret = TestDatabase.secret(for: directory)
        return configuration
    }

    /// Every way the raw private key could appear in a file.
    static func encodings(ofKeyIn pem: String) throws -> [String] {
        let key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        let raw = key.rawRepresentation
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return [Hex.encode(Array(raw)), raw.base64EncodedString(), String(body.prefix(40)), String(body.suffix(40))]
    }

    @Test func aBackupThiefFindsNoUsablePrivateKey() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        let vault = harness.server.services.vault
        let stored = try await harness.server.storage.read { try await $0.signingKeys() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            #expect(session.status == .ok)
        }

        // The thief reads the database as it is on disk (SQLite: the file and its -wal).
        let text = try await harness.databaseText()
        #expect(!text.contains("PRIVATE KEY"))
        for record in stored {
            #expect(SigningKeyVault.isSealed(record.privatePEM))
            #expect(throws: (any Error).self) { try ES256PrivateKey(pem: record.privatePEM) }
            let pem = try vault.open(record.privatePEM, kid: record.kid)
            for encoding in try Self.encodings(ofKeyIn: pem) {
                #expect(!text.contains(encoding), "a private key is readable in the database")
            }
            // Another secret (the thief's guess) opens nothing.
            let guess = SigningKeyVault(secret: .ephemeral())
            #expect(throws: (any Error).self) { try guess.open(record.privatePEM, kid: record.kid) }
            // Nor does the sealed key move to another kid.
            #expect(throws: (any Error).self) { try vault.open(record.privatePEM, kid: "other") }
        }
    }

    @Test func plaintextKeysFromAnEarlierVersionAreSealedAtStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-seal-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a database where an earlier version stored its key in plaintext,
        let pem = ES256PrivateKey().pemRepresentation
        let old = SigningKeyRecord(kid: "0123456789abcdef", algorithm: "ES256", privatePEM: pem, createdAt: Date())
        let configuration = try await Self.configuration(for: directory)
        let database = try await ServerDatabase.open(configuration, logger: .quiet)
        try await database.storage.transaction { try await $0.insertSigningKey(old) }
        try await database.close()
        let before = try await TestDatabase.contents(of: configuration.database)
        #expect(before.contains("PRIVATE KEY"), "the old layout is plaintext")

        // when the server starts on it,
        let harness = try await Harness.make(directory: directory) { $0.mailerAutoconfirm = true }
        try await harness.live { client in
            // the key still signs and verifies (same kid),
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            #expect(JWTTests.decode(JWTTests.segments(token)[0])["kid"] as? String == old.kid)
            #expect(try await client.get("/user", bearer: token).status == .ok)
        }

        // and the files hold it only sealed.
        let text = try await harness.databaseText()
        #expect(!text.contains("PRIVATE KEY"))
        for encoding in try Self.encodings(ofKeyIn: pem) {
            #expect(!text.contains(encoding), "the plaintext key survived the migration")
        }
    }

    @Test func configurationInTheLogHasNoPasswordOrSecret() throws {
        var configuration = try ServerConfiguration(environment: [
            "GATEHOUSE_DATABASE_URL": "postgres://gatehouse:pg-password-1234@db.internal:5432/auth",
            "GATEHOUSE_JWT_SECRET": "jwt-secret-jwt-secret-jwt-secret-1234",
            "GATEHOUSE_SERVER_SECRET": "server-secret-server-secret-server-1234",
            "GATEHOUSE_SMTP_HOST": "smtp.example.com",
            "GATEHOUSE_SMTP_USER": "mailer",
            "GATEHOUSE_SMTP_PASS": "smtp-password-1234",
        ])
        configuration.port = 9999
        var dumped = ""
        dump(configuration, to: &dumped)
        let renderings = [
            "\(configuration)", "\(configuration.database)", String(reflecting: configuration), dumped,
            "\(configuration.smtp as Any)", String(reflecting: configuration.database),
        ]
        for text in renderings {
            for secret in ["pg-password-1234", "jwt-secret-jwt", "server-secret-server", "smtp-password-1234"] {
                #expect(!text.contains(secret), "\(secret) in: \(text)")
            }
        }
        #expect("\(configuration.database)".contains("db.internal"), "the rest is still there")
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "the log of a PostgreSQL start"))
    func thePostgresPasswordNeverReachesTheServerLog() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-pglog-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case .postgres(let settings) = try await TestDatabase.database(for: directory) else { return }
        // The test cluster trusts loopback, so any password connects: only the log can leak it.
        let password = "pg-log-password-\(UUID().uuidString.prefix(8))"
        let server = try await ServerProcess(
            environment: [
                "GATEHOUSE_DATABASE_URL":
                    "postgres://\(settings.username):\(password)@\(settings.host):\(settings.port)/\(settings.database)"
                    + "?sslmode=disable",
                "GATEHOUSE_SERVER_SECRET": "pg-log-secret-\(directory.lastPathComponent)",
                "GATEHOUSE_LOG_LEVEL": "trace",
            ],
            logDirectory: directory
        )
        await server.kill()
        let log = try String(contentsOf: server.logURL, encoding: .utf8)
        #expect(log.contains("Gatehouse listening"))
        #expect(!log.contains(password))
    }

    @Test func theCommonPasswordListIsRequired() throws {
        #expect(throws: ConfigurationError.self) {
            try PasswordPolicy.load(from: URL(fileURLWithPath: "/nonexistent/common-passwords.txt"))
        }
        #expect(throws: ConfigurationError.self) { try PasswordPolicy.load(from: nil) }
        #expect(try PasswordPolicy.loadBundled().commonPasswords.count > 1000)
    }
}

extension Logger {
    /// A logger that prints nothing.
    static var quiet: Logger {
        var logger = Logger(label: "quiet")
        logger.logLevel = .critical
        return logger
    }
}
