import Foundation
import GatehouseStorage
import HTTPTypes
import Hummingbird
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `security.md` SA-1 (issue 31): every route that writes is in the table of sensitive actions or
/// exempt for a stated reason, the table names no route the router lacks, every action has a
/// route, and `docs/security.md` prints every action.
@Suite("Sensitive actions cover every route")
struct SensitiveRouteCoverageTests {
    static func routes(_ harness: Harness) -> [(method: HTTPRequest.Method, path: String)] {
        buildRouter(harness.server.services).routes.map { route in
            let path = "\(route.path)"
            return (route.method, path.hasPrefix("/") ? path : "/" + path)
        }
    }

    @Test func everyRouteThatWritesHasAnEntry() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let routes = Self.routes(harness)
        #expect(routes.count > 40)
        for (method, path) in routes where method != .get && method != .head {
            #expect(
                SensitiveRoutes.entry(method: method, path: path) != nil,
                "\(method) \(path) writes but is neither a sensitive action nor exempt: add it to SensitiveRoutes"
            )
        }
        try? await harness.server.storage.close()
    }

    @Test func theTableNamesOnlyRegisteredRoutesAndEveryAction() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let registered = Set(Self.routes(harness).map { "\($0.method) \($0.path)" })
        for key in SensitiveRoutes.entries.keys {
            #expect(registered.contains(key), "SensitiveRoutes names \(key), which the router does not have")
        }
        var performed: Set<SensitiveAction> = []
        for case .sensitive(let actions) in SensitiveRoutes.entries.values { performed.formUnion(actions) }
        #expect(performed == Set(SensitiveAction.allCases), "every action is performed by some route")
        try? await harness.server.storage.close()
    }

    @Test func aNewRouteThatWritesWithoutAnEntryIsCaught() {
        // The check above, on a route no one has added to the table.
        #expect(SensitiveRoutes.entry(method: .post, path: "/user/recovery-phone") == nil)
        #expect(SensitiveRoutes.entry(method: .delete, path: "/admin/users/{id}/anything") != nil)
    }

    @Test func theDocumentationPrintsTheTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/security.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for action in SensitiveAction.allCases {
            #expect(text.contains("| `\(action.rawValue)` |"), "docs/security.md lacks \(action.rawValue)")
        }
        #expect(
            SensitiveActionPolicy.recentAuthentication == 600 && text.contains("**10 minutes**"),
            "the documented window is the table's"
        )
    }
}
