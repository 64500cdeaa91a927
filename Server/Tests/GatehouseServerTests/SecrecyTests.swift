import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

@Suite("Logs and timing reveal nothing")
struct SecrecyTests {
    /// A log handler that keeps every rendered line.
    final class RecordingLogHandler: LogHandler, @unchecked Sendable {
        final class Lines: @unchecked Sendable {
            private let lock = NSLock()
            private var lines: [String] = []
            func append(_ line: String) { lock.withLock { lines.append(line) } }
            var all: String { lock.withLock { lines.joined(separator: "\n") } }
        }

        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        init(lines: Lines) { self.lines = lines }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            lines.append("\(event.level) \(event.message) \(all)")
        }
    }

    @Test func aFullFlowLogsNoPasswordCodeOrToken() async throws {
        let lines = RecordingLogHandler.Lines()
        let logger = Logger(label: "gatehouse") { _ in RecordingLogHandler(lines: lines) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-logs-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.database = .sqliteFile(directory.appendingPathComponent("db.sqlite").path)
        let mailer = CapturingMailer()
        let server = try await buildServer(configuration: configuration, mailer: mailer, logger: logger)
        let secrets = SecretBox()
        try await LiveServer.run(server.application) { raw in
            let client = Client(client: raw, mailer: mailer, server: server)
            let password = "correct horse battery"
            secrets.add(password)
            let session = try await client.confirmedSession(email: "ada@example.com", password: password)
            secrets.add(try await client.waitForCode(to: "ada@example.com"))
            secrets.add(try #require(session.string("access_token")))
            secrets.add(try #require(session.string("refresh_token")))
            let refreshed = try await client.refresh(try #require(session.string("refresh_token")))
            secrets.add(try #require(refreshed.string("refresh_token")))
            _ = try await client.signIn("ada@example.com", "wrong password here")
            secrets.add("wrong password here")
            _ = try await client.post("/logout", bearer: refreshed.string("access_token"))
            _ = try await client.get("/user", bearer: "garbage.token.value")
        }
        try await server.storage.close()
        let text = lines.all
        #expect(!text.isEmpty, "the server did log")
        for secret in secrets.all {
            #expect(!text.contains(secret), "a secret reached the log: \(secret.prefix(6))…")
        }
    }

    @Test func unknownEmailCostsTheSameBcryptWorkAsAWrongPassword() async throws {
        let harness = try await Harness.make {
            $0.bcryptCost = 10
            $0.mailerAutoconfirm = true
        }
        defer { harness.removeFiles() }
        let hasher = harness.server.services.passwords
        try await harness.live { client in
            let signup = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            #expect(signup.status == .ok)
            let stored = try await harness.server.storage.transaction { try await $0.user(email: "ada@example.com") }
            // The dummy hash has the cost of a real one, so verifying against it takes as long.
            #expect(hasher.dummyHash.prefix(7) == stored?.passwordHash?.prefix(7))
            #expect(hasher.dummyHash.hasPrefix("$2b$10$"))
            for email in ["ada@example.com", "nobody@example.com", "NoBody@Example.com "] {
                let before = hasher.verificationCount
                let reply = try await client.signIn(email, "wrong password")
                #expect(reply.status == .badRequest && reply.errorCode == "invalid_credentials")
                #expect(hasher.verificationCount == before + 1, "\(email): exactly one bcrypt verification")
            }
        }
    }
}

final class SecretBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []
    func add(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
}
