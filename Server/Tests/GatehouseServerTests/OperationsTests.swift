import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 19: `/health`, `/ready` and the API document at `/openapi.yaml`, which lists exactly the
/// routes the router answers.
@Suite("Operations: health, readiness, API document")
struct OperationsTests {
    /// `METHOD /path` for every operation in `Server/openapi.yaml` (captures spelled `{id}`, as
    /// the router describes them too).
    static func documentedOperations(_ yaml: String) -> Set<String> {
        var operations = Set<String>()
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if !line.hasPrefix(" ") {
                path = nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch"].contains(method) {
                    operations.insert("\(method.uppercased()) \(path)")
                }
            }
        }
        return operations
    }

    @Test func theDocumentListsEveryRouteAndNoOther() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let routes = Set(
            buildRouter(harness.server.services).routes.map { route in
                let path = "\(route.path)"
                return "\(route.method) \(path.hasPrefix("/") ? path : "/" + path)"
            }
            // The console's pages are HTML for a browser, not the API (docs/console.md).
            .filter { !$0.contains(" /console") }
        )
        let yaml = String(decoding: APIDocument.yaml, as: UTF8.self)
        #expect(yaml.hasPrefix("openapi: 3.1."))
        let documented = Self.documentedOperations(yaml)
        #expect(documented.count > 20)
        #expect(routes.subtracting(documented).isEmpty, "routes missing from openapi.yaml")
        #expect(documented.subtracting(routes).isEmpty, "openapi.yaml operations the server lacks")
        try? await harness.server.storage.close()
    }

    @Test func theDocumentIsServedAsYAML() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let reply = try await client.get("/openapi.yaml")
            #expect(reply.status == .ok)
            #expect(reply.header("Content-Type")?.hasPrefix("application/yaml") == true)
            #expect(reply.text == String(decoding: APIDocument.yaml, as: UTF8.self))
        }
    }

    @Test func readyWhenTheDatabaseAnswersAndItsSchemaIsComplete() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let health = try await client.get("/health")
            #expect(health.status == .ok && health.string("name") == "Gatehouse")
            let ready = try await client.get("/ready")
            #expect(ready.status == .ok && ready.string("status") == "ready")

            // A migration this server knows is missing (another version migrates, or a
            // restore from an older backup): not ready, 503.
            let name = Migrations.all.last!.name
            try await harness.server.storage.transaction { tx in
                _ = try await (tx as! SQLTransaction).query(
                    "DELETE FROM schema_migrations WHERE name = ?",
                    [.text(name)]
                )
            }
            let pending = try await client.get("/ready")
            #expect(pending.status == .serviceUnavailable && pending.string("status") == "migrations_pending")
            #expect(try await client.get("/health").status == .ok)

            // The database is gone: 503, and /health still answers without it.
            try await harness.server.storage.close()
            let unavailable = try await client.get("/ready")
            #expect(unavailable.status == .serviceUnavailable)
            #expect(unavailable.string("status") == "database_unavailable")
            #expect(try await client.get("/health").status == .ok)
        }
    }

    /// Found by schemathesis (`unsupported_method`): a known path with a method it does not
    /// answer was 404 `not_found`; it is 405 `method_not_allowed` with `Allow`, as GoTrue answers.
    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let trace = try await client.send(.trace, "/health")
            #expect(trace.status == .methodNotAllowed && trace.errorCode == "method_not_allowed")
            #expect(trace.header("Allow") == "GET")
            let token = try await client.send(.delete, "/token?grant_type=password")
            #expect(token.status == .methodNotAllowed && token.header("Allow") == "POST")
            let user = try await client.send(.patch, "/admin/users/\(UUID().uuidString)", json: "{}")
            #expect(user.status == .methodNotAllowed && user.header("Allow") == "DELETE, GET, PUT")
            #expect(user.header("x-sb-error-code") == "method_not_allowed")
            // A literal path beside a capture (found by schemathesis, issue 36): the router takes
            // the literal, so `Allow` names only its methods, and the capture's path keeps its own.
            let authorize = try await client.send(.options, "/user/identities/authorize")
            #expect(authorize.status == .methodNotAllowed && authorize.header("Allow") == "GET")
            let identity = try await client.send(.options, "/user/identities/\(UUID().uuidString)")
            #expect(identity.status == .methodNotAllowed && identity.header("Allow") == "DELETE")
            let unknown = try await client.get("/no/such/route")
            #expect(unknown.status == .notFound && unknown.errorCode == "not_found")
            #expect(unknown.header("Allow") == nil)
        }
    }
}
