import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// A user's factors for the admin API: `GET /admin/users/{id}/factors` and
/// `DELETE /admin/users/{id}/factors/{factor_id}`. Registered on the admin routes (``AdminRequestContext``).
struct AdminFactorController {
    let lookup: AdminUserLookup
    let unenrollment: FactorUnenrollment

    func register(on router: some RouterMethods<AdminRequestContext>) {
        router.get("admin/users/:id/factors") { request, context in
            let user = try await lookup.user(context.parameters.get("id").flatMap(UUID.init(uuidString:)))
            return try JSONBody.response(user.factors.map(\.wire), request: request)
        }
        router.delete("admin/users/:id/factors/:factor_id") { request, context in
            let user = try await lookup.user(context.parameters.get("id").flatMap(UUID.init(uuidString:)))
            let id = try MFAAccess.id(context.parameters.get("factor_id"))
            let removed = try await unenrollment.admin(factorID: id, userID: user.id, ip: context.clientKey)
            return try JSONBody.response(removed.wire, request: request)
        }
    }
}
