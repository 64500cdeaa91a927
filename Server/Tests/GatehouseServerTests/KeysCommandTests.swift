import Foundation
import GatehouseFlows
import GatehouseProcessTesting
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

/// `gatehouse-server keys list|rotate|retire` and `admin-token`, run as the built binary against
/// the suite's database: a SQLite file, or the PostgreSQL database when the suite runs there.
@Suite("Key and admin-token commands")
struct KeysCommandTests {
    struct Run: Sendable {
        var status: Int32
        var output: String
        var errors: String
        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Runs `gatehouse-server` with `arguments` on the database at `url`.
    static func run(_ arguments: [String], database url: String, secret: String? = nil) async throws -> Run {
        let process = ChildProcess()
        process.executableURL = ServerProcess.builtBinary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GATEHOUSE_") }
        environment["GATEHOUSE_DATABASE_URL"] = url
        // PostgreSQL keeps no secret file: the sealed keys open only with the suite's secret.
        if let secret { environment["GATEHOUSE_SERVER_SECRET"] = secret }
        process.environment = environment
        let finished = try await process.runToEnd()
        return Run(status: finished.status, output: finished.output, errors: finished.errors)
    }

    @Test func keysRotateListAndRetireWorkOnTheConfiguredDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-keys-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = TestDatabase.url(of: try await TestDatabase.database(for: directory))
        let secret = TestDatabase.secret(for: directory)

        // Given a database the server never opened, when keys are rotated twice,
        let first = try await Self.run(["keys", "rotate"], database: url, secret: secret)
        #expect(first.status == 0, "\(first.errors)")
        let second = try await Self.run(["keys", "rotate"], database: url, secret: secret)
        #expect(second.status == 0, "\(second.errors)")
        let oldKid = first.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let newKid = second.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(oldKid.count == 16 && newKid.count == 16 && oldKid != newKid)

        // then the list shows both, oldest first.
        let listed = try await Self.run(["keys", "list"], database: url, secret: secret)
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.lines.count == 2)
        #expect(listed.lines.first?.hasPrefix(oldKid + "  ES256") == true, "\(listed.output)")
        #expect(listed.lines.last?.hasPrefix(newKid + "  ES256") == true, "\(listed.output)")

        // A kid that names no key, or the signing key, is refused with a message; nothing changes.
        let unknown = try await Self.run(["keys", "retire", "0000000000000000"], database: url, secret: secret)
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("names no stored key"), "\(unknown.errors)")
        let signing = try await Self.run(["keys", "retire", newKid], database: url, secret: secret)
        #expect(signing.status != 0)
        #expect(signing.errors.contains("rotate first"), "\(signing.errors)")
        #expect(try await Self.run(["keys", "list"], database: url, secret: secret).lines.count == 2)

        // Retiring the older key leaves the newer one.
        let retired = try await Self.run(["keys", "retire", oldKid], database: url, secret: secret)
        #expect(retired.status == 0, "\(retired.errors)")
        let after = try await Self.run(["keys", "list"], database: url, secret: secret)
        #expect(after.lines.count == 1 && after.lines.first?.hasPrefix(newKid) == true, "\(after.output)")

        // admin-token signs with that key, and the server on the same database accepts it.
        let token = try await Self.run(["admin-token"], database: url, secret: secret)
        #expect(token.status == 0, "\(token.errors)")
        let admin = token.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(admin.split(separator: ".").count == 3)
        let header = JWTTests.decode(String(admin.split(separator: ".")[0]))
        #expect(header["kid"] as? String == newKid)
        let harness = try await Harness.make(directory: directory)
        try await harness.live { client in
            #expect(try await client.get("/admin/users", bearer: admin).status == .ok)
            let keys = try await client.get("/.well-known/jwks.json")["keys"] as? [[String: Any]]
            #expect(keys?.compactMap { $0["kid"] as? String } == [newKid])
        }
    }

    @Test func anAdminTokenExpiresIn90DaysByDefaultAndCanBeRevoked() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-revoke-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = TestDatabase.url(of: try await TestDatabase.database(for: directory))
        let secret = TestDatabase.secret(for: directory)

        // Two admin tokens: the default lifetime and a chosen one; each names its jti.
        let leaked = try await Self.run(["admin-token"], database: url, secret: secret)
        let kept = try await Self.run(["admin-token", "--expires-in", "400d"], database: url, secret: secret)
        #expect(leaked.status == 0 && kept.status == 0, "\(leaked.errors)\(kept.errors)")
        let leakedToken = leaked.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let keptToken = kept.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let claims = JWTTests.decode(String(leakedToken.split(separator: ".")[1]))
        let lifetime = (claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0)
        #expect(lifetime == 90 * 86_400, "not ten years")
        let jti = try #require(claims["jti"] as? String)
        #expect(leaked.errors.contains("jti: \(jti)"))
        let keptClaims = JWTTests.decode(String(keptToken.split(separator: ".")[1]))
        #expect((keptClaims["exp"] as? Int ?? 0) - (keptClaims["iat"] as? Int ?? 0) == 400 * 86_400)
        #expect(try await Self.run(["admin-token", "--expires-in", "soon"], database: url, secret: secret).status != 0)

        // When the leaked one is revoked, it stops working at once; the other keeps working.
        let revoked = try await Self.run(["admin-token", "--revoke", jti], database: url, secret: secret)
        #expect(revoked.status == 0, "\(revoked.errors)")
        let harness = try await Harness.make(directory: directory)
        try await harness.live { client in
            let refused = try await client.get("/admin/users", bearer: leakedToken)
            #expect(refused.status == .forbidden && refused.errorCode == "bad_jwt")
            #expect(try await client.get("/admin/users", bearer: keptToken).status == .ok)
        }
    }

    @Test func retiringAnUnknownKidIsTheOperatorsMistakeNotAConfigurationError() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let storage = harness.server.storage
        let error = await #expect(throws: SigningKeyAdmin.RetireError.self) {
            try await SigningKeyAdmin.retire(kid: "no-such-kid", storage: storage)
        }
        #expect(error == SigningKeyAdmin.RetireError(kid: "no-such-kid", reason: .unknownKey))
        #expect(error?.description == "no-such-kid names no stored key")
        #expect(try await SigningKeyAdmin.list(storage: storage).count == 1, "nothing was removed")
        try await storage.close()
    }
}
