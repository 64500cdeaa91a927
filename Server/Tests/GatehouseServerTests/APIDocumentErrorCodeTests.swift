import Foundation
import Testing

@testable import GatehouseServer

/// The API document's `ErrorCode` enum lists exactly the codes a server can send: every constant
/// GatehouseCore's `Errors/ErrorCode*.swift` declare outside a section marked "never sent by a
/// server", and no other. A code added to the server but not to the document made schemathesis
/// fail by chance (`mfa_enrollment_link_too_long`, 28 November 2026); this finds the next one on
/// every run.
@Suite("API document error codes")
struct APIDocumentErrorCodeTests {
    /// `Sources/GatehouseCore/Errors` (this file is `Server/Tests/GatehouseServerTests/…`).
    static let errors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/GatehouseCore/Errors")

    /// What a section's heading says when a server never sends its codes.
    static let clientMark = "never sent by a server"

    /// The wire spellings of the `ErrorCode` constants declared in `ErrorCode*.swift`, by whether
    /// their section is a client's.
    static func declaredCodes() throws -> (server: Set<String>, client: Set<String>) {
        let files = try FileManager.default.contentsOfDirectory(atPath: errors.path)
            .filter { $0.hasPrefix("ErrorCode") && $0.hasSuffix(".swift") }
        let constant = /public static let \w+: ErrorCode = "([a-z0-9_]+)"/
        var server: Set<String> = []
        var client: Set<String> = []
        for file in files {
            let text = try String(contentsOf: errors.appendingPathComponent(file), encoding: .utf8)
            var inClientSection = false
            for line in text.split(separator: "\n") {
                if line.hasPrefix("// MARK: - ") { inClientSection = line.contains(clientMark) }
                guard let match = line.firstMatch(of: constant) else { continue }
                if inClientSection {
                    client.insert(String(match.1))
                } else {
                    server.insert(String(match.1))
                }
            }
        }
        return (server, client)
    }

    /// The entries of `components.schemas.ErrorCode.enum` in the API document.
    static func documentedCodes() -> [String] {
        let lines = String(decoding: APIDocument.yaml, as: UTF8.self).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        guard let schemas = lines.firstIndex(of: "  schemas:"),
            let start = lines[schemas...].firstIndex(of: "    ErrorCode:"),
            let list = lines[start...].firstIndex(of: "      enum:")
        else { return [] }
        return lines[(list + 1)...].prefix { $0.hasPrefix("        - ") }.map { String($0.dropFirst(10)) }
    }

    @Test func theDocumentListsEveryCodeAServerSendsAndNoOther() throws {
        let declared = try Self.declaredCodes()
        let documented = Self.documentedCodes()
        // A check on the check: both lists were read, and the sections were told apart.
        #expect(declared.server.count > 60 && declared.client.count > 10 && documented.count > 60)
        #expect(declared.server.contains("webauthn_challenge_expired") && declared.client.contains("storage_locked"))
        let missing = declared.server.subtracting(documented).sorted()
        #expect(missing.isEmpty, "Server/openapi.yaml's ErrorCode enum is missing \(missing)")
        let unknown = Set(documented).subtracting(declared.server).sorted()
        #expect(unknown.isEmpty, "Server/openapi.yaml's ErrorCode enum lists codes no server sends: \(unknown)")
        #expect(documented.count == Set(documented).count, "Server/openapi.yaml's ErrorCode enum repeats a code")
    }
}
