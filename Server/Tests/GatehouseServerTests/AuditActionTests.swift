import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: the audit log's actions are one typed vocabulary (``AuditAction``), the same list as
/// `docs/operating.md`'s, and a line of an action this build does not know (an older version's,
/// a newer instance's in a rolling upgrade) still reads back and shows in the console.
@Suite("The audit log's vocabulary")
struct AuditActionTests {
    static let reference = "docs/operating.md"

    /// The repository's root (this file is `Server/Tests/GatehouseServerTests/…`).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func eachKnownActionHasItsOwnText() {
        let texts = AuditAction.known.map(\.rawValue)
        var seen: [String: Int] = [:]
        for text in texts { seen[text, default: 0] += 1 }
        let repeated = seen.filter { $0.value > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "Constants of AuditAction share \(repeated): their lines could not be told apart.")
        for text in texts {
            #expect(
                !text.isEmpty && text.allSatisfy { ($0 >= "a" && $0 <= "z") || $0 == "_" },
                "\(text): the stored actions are lowercase words joined by _"
            )
            #expect(AuditAction(rawValue: text).isKnown)
        }
        #expect(texts.count >= 48, "AuditAction.known lost actions: \(texts.count)")
        #expect(!AuditAction(rawValue: "written_by_a_newer_version").isKnown)
    }

    /// The names GoTrue writes for the same events stay GoTrue's (the stored text is the
    /// contract with tools that read a GoTrue audit log).
    @Test func theActionsGoTrueSharesKeepItsNames() {
        let gotrue: [(AuditAction, String)] = [
            (.login, "login"), (.logout, "logout"), (.userSignedUp, "user_signedup"),
            (.userRepeatedSignUp, "user_repeated_signup"), (.userInvited, "user_invited"),
            (.userDeleted, "user_deleted"), (.userModified, "user_modified"), (.tokenRefreshed, "token_refreshed"),
            (.tokenRevoked, "token_revoked"), (.factorUnenrolled, "factor_unenrolled"),
            (.identityUnlinked, "identity_unlinked"),
        ]
        for (action, text) in gotrue { #expect(action.rawValue == text) }
    }

    @Test func theReferenceListsExactlyTheKnownActions() throws {
        let listed = try Self.actionsListedInTheReference()
        let known = AuditAction.known.map(\.rawValue)
        let missing = known.filter { !listed.contains($0) }
        #expect(
            missing.isEmpty,
            "The server writes \(missing.joined(separator: ", ")), which \(Self.reference) does not list: add a row."
        )
        let stale = listed.filter { !known.contains($0) }
        let staleAdvice = "remove the row or fix its spelling"
        #expect(
            stale.isEmpty,
            "\(Self.reference) lists \(stale.joined(separator: ", ")), which AuditAction.known does not: \(staleAdvice)."
        )
        #expect(listed == known, "List the actions in \(Self.reference) in the order of AuditAction.known.")
    }

    /// A write site names one of the constants: text becomes an action only where a stored line
    /// or the console's filter is read.
    @Test func onlyReadersMakeAnActionFromText() throws {
        let readers: Set<String> = [
            "GatehouseStorage/AuditAction.swift", "GatehouseStorage/SQL/SQLTransaction+Console.swift",
            "GatehouseStorage/SQL/SQLTransaction+Keys.swift", "GatehouseServer/Console/ConsoleAuditPage.swift",
        ]
        // Every target of the server: the edge, the flows, storage and the rest.
        let sources = Self.root.appendingPathComponent("Server/Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var makers: [String] = []
        var scanned = 0
        for case let path as String in walker where path.hasSuffix(".swift") {
            scanned += 1
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains("AuditAction(rawValue:") && !readers.contains(path) { makers.append(path) }
        }
        #expect(scanned > 300, "the scan of \(sources.path) found \(scanned) files")
        let advice = "add a constant to AuditAction (and its row to \(Self.reference)) instead"
        #expect(makers.isEmpty, "\(makers.joined(separator: ", ")) make an audit action from text: \(advice).")
    }

    /// A line whose action this build does not know, inserted as another version would, reads
    /// back as written and shows on the console's audit page, its filter and the user's trail.
    @Test func aLineOfAnUnknownActionReadsBackAndShowsInTheConsole() async throws {
        try await ConsoleAttackTests.scene { harness, _, browser, _, victim in
            let future = "passkey_attested_by_a_newer_version"
            try await harness.server.storage.transaction { tx in
                _ = try await (tx as! SQLTransaction).query(
                    "INSERT INTO audit_log (at, action, actor_id, ip, detail, subject_id) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .float(harness.clock.now().timeIntervalSince1970), .text(future), .text(victim.id.key),
                        .text("192.0.2.7"), .text("from the future"), .null,
                    ]
                )
            }
            let read = try await harness.server.storage.read { try await $0.auditEntries(limit: 10) }
            let line = try #require(read.first { $0.action.rawValue == future })
            #expect(!line.action.isKnown && line.actorID == victim.id && line.detail == "from the future")
            let filtered = try await harness.server.storage.read {
                try await $0.auditEntries(matching: AuditQuery(action: AuditAction(rawValue: future)))
            }
            #expect(filtered.map(\.entry.action.rawValue) == [future])

            let page = try await browser.get("/console/audit")
            #expect(page.status == .ok && page.text.contains(">\(future)<"))
            #expect(page.text.contains(">console_signed_in<"))
            let only = try await browser.get("/console/audit?action=\(future)")
            #expect(only.status == .ok && only.text.contains(">\(future)<"))
            #expect(!only.text.contains(">console_signed_in<"))
            let trail = try await browser.get("/console/users/\(victim.id.key)")
            #expect(trail.status == .ok && trail.text.contains(">\(future)<"))
        }
    }

    /// The backticked names in the first column of the table under "## The audit log".
    static func actionsListedInTheReference() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(reference), encoding: .utf8)
        let section =
            try #require(text.components(separatedBy: "\n## The audit log\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            let cell = line.dropFirst(3)
            return cell.firstIndex(of: "`").map { String(cell[..<$0]) }
        }
        #expect(names.count > 40, "found \(names.count) rows in \(reference)'s audit table")
        return names
    }
}
