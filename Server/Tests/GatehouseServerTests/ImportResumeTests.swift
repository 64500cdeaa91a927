import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

#if canImport(Glibc)
import Glibc
#endif

/// An import killed part-way (SIGKILL: no chance to clean up, a transaction maybe half
/// written) and run again ends with every user of the export exactly once (issue 38).
@Suite("Import: resume after a kill")
struct ImportResumeTests {
    static let count = 10_000
    static let batch = 10

    /// `count` Supabase users, each with a Google identity, as one JSON file.
    static func export() -> (text: String, ids: [UUID]) {
        let ids = (0..<count).map { _ in UUID() }
        let hash = "$2b$04$" + String(repeating: "A", count: 53)
        let users = ids.enumerated().map { index, id in
            #"{"id":"\#(id.uuidString.lowercased())","email":"user\#(index)@example.com","encrypted_password":"\#(hash)","#
                + #""email_confirmed_at":"2024-01-15T10:30:00+00:00","created_at":"2024-01-15T10:29:00+00:00"}"#
        }
        let identities = ids.enumerated().map { index, id in
            #"{"id":"\#(UUID().uuidString.lowercased())","user_id":"\#(id.uuidString.lowercased())","#
                + #""provider":"google","provider_id":"g\#(index)","identity_data":{"sub":"g\#(index)"}}"#
        }
        let text =
            #"{"users":["# + users.joined(separator: ",") + #"],"identities":["#
            + identities.joined(separator: ",") + "]}"
        return (text, ids)
    }

    @Test func aKilledImportRunAgainEndsWithEveryUserOnce() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        // Built off the cooperative pool: thousands of strings in a debug build take a while.
        let (text, ids) = await Blocking.run { Self.export() }
        let file = try scene.file("users.json", text)
        let arguments = ["import", "--from", "supabase", file, "--batch-size", String(Self.batch)]

        // Start the import with its progress on a pipe; once a few batches are committed (the
        // progress is written after each commit), kill it.
        let process = ChildProcess()
        process.executableURL = ServerProcess.builtBinary
        process.arguments = arguments + ["--progress"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GATEHOUSE_") }
        environment["GATEHOUSE_DATABASE_URL"] = scene.url
        if let secret = scene.secret { environment["GATEHOUSE_SERVER_SECRET"] = secret }
        process.environment = environment
        let errors = Pipe()
        process.standardError = .pipe(errors)
        try process.run(killingAfter: .seconds(120))
        let reader = errors.fileHandleForReading
        let progressed = await Blocking.run { () -> String in
            var seen = ""
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return seen }
                seen += String(decoding: chunk, as: UTF8.self)
                // Five batches committed.
                if seen.contains(" \(5 * Self.batch)/\(Self.count) ") || seen.contains("\(6 * Self.batch)/") {
                    return seen
                }
            }
        }
        process.signal(SIGKILL)
        #expect(await process.waitUntilExit(timeout: .seconds(30)))
        #expect(process.terminationStatus == SIGKILL, "the import ended before it was killed: \(progressed)")

        // Part of it is there: a dry run finds some users present, the others still to import.
        let dry = try await scene.run(["--from", "supabase", file, "--dry-run"])
        let present = try #require(
            Self.number(after: "already present ", in: ImportScene.summary(dry)),
            "\(dry.output)"
        )
        #expect(present >= 5 * Self.batch && present < Self.count, "\(dry.output)")
        #expect(present % Self.batch == 0, "only whole batches are committed")

        let resumed = try await scene.run(["--from", "supabase", file, "--batch-size", "1000"])
        #expect(resumed.status == 0, "\(resumed.errors)")
        #expect(
            ImportScene.summary(resumed)
                == "imported \(Self.count - present) (\(Self.count - present) with a password, \(Self.count - present) identities, "
                + "0 TOTP factors), already present \(present), refused 0",
            "\(resumed.output)"
        )
        let again = try await scene.run(["--from", "supabase", file])
        #expect(
            ImportScene.summary(again).hasPrefix(
                "imported 0 (0 with a password, 0 identities, 0 TOTP factors), already present \(Self.count)"
            )
        )

        try await scene.serve { _, _, _, harness in
            let storage = harness.server.storage
            // The test's own bulk check, not a request path (StatementPlanTests records those).
            let (users, identities) = try await StatementLog.$isUnrecorded.withValue(true) {
                try await storage.read { reader in
                    (
                        try await reader.existingUserIDs(ids).count,
                        try await reader.existingIdentities(
                            (0..<Self.count).map { IdentityKey(provider: .google, subject: "g\($0)") }
                        ).count
                    )
                }
            }
            #expect(users == Self.count && identities == Self.count)
        }
    }

    static func number(after label: String, in line: String) -> Int? {
        guard let range = line.range(of: label) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
