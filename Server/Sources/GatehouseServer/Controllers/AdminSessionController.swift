import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// A user's sessions for `service_role` tokens: `GET /admin/users/{id}/sessions` and
/// `DELETE /admin/users/{id}/sessions/{sid}`. Registered on the admin routes (``AdminRequestContext``).
struct AdminSessionController {
    let lookup: AdminUserLookup
    let listing: SessionListing
    let ending: AdminSessionEnding

    func register(on router: some RouterMethods<AdminRequestContext>) {
        router.get("admin/users/:id/sessions") { request, context in
            let user = try await lookup.user(context.parameters.get("id").flatMap(UUID.init(uuidString:)))
            return try JSONBody.response(try await listing(of: user.id, current: nil), request: request)
        }
        router.delete("admin/users/:id/sessions/:sid") { _, context in
            let user = try await lookup.user(context.parameters.get("id").flatMap(UUID.init(uuidString:)))
            let id = context.parameters.get("sid").flatMap(UUID.init(uuidString:))
            try await ending(id, of: user, ip: context.clientKey)
            return Response(status: .noContent)
        }
    }
}
