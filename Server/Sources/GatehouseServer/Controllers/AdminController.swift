import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The admin API for `service_role` tokens: `/admin/users` (list, create, get, update, delete).
/// Registered on the admin routes (``AdminRequestContext``).
struct AdminController {
    let lookup: AdminUserLookup
    let creation: AdminUserCreation
    let update: AdminUserUpdate
    let deletion: AdminUserDeletion

    func register(on router: some RouterMethods<AdminRequestContext>) {
        router.get("admin/users") { request, _ in try await list(request) }
        router.post("admin/users") { request, context in
            let body = try await JSONBody.decode(AdminUserRequest.self, from: request, context: context)
            let user = try await creation(body, ip: context.clientKey)
            return try JSONBody.response(user.wire, request: request)
        }
        router.get("admin/users/:id") { request, context in
            try JSONBody.response(try await lookup.user(Self.id(context)).wire, request: request)
        }
        router.put("admin/users/:id") { request, context in
            let body = try await JSONBody.decode(AdminUserRequest.self, from: request, context: context)
            let existing = try await lookup.user(Self.id(context))
            return try JSONBody.response(
                try await update(body, of: existing, ip: context.clientKey).wire,
                request: request
            )
        }
        router.delete("admin/users/:id") { request, context in
            try await deletion(try await lookup.user(Self.id(context)), ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
    }

    private static func id(_ context: some RequestContext) -> UUID? {
        context.parameters.get("id").flatMap(UUID.init(uuidString:))
    }

    private func list(_ request: Request) async throws -> Response {
        let paging = try AdminPaging(
            page: request.uri.queryParameters.get("page"),
            perPage: request.uri.queryParameters.get("per_page")
        )
        let (page, perPage) = (paging.page, paging.perPage)
        let (users, total) = try await lookup.page(paging)
        var response = try JSONBody.response(
            AdminUserList(users: users.map(\.wire), aud: "authenticated"),
            request: request
        )
        response.headers[HTTPField.Name("X-Total-Count")!] = String(total)
        let last = max(1, (total + perPage - 1) / perPage)
        var links = ["</admin/users?page=\(last)&per_page=\(perPage)>; rel=\"last\""]
        if page < last { links.insert("</admin/users?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"", at: 0) }
        response.headers[HTTPField.Name("Link")!] = links.joined(separator: ", ")
        return response
    }
}

/// The body of `GET /admin/users`.
struct AdminUserList: Encodable {
    var users: [WireUser]
    var aud: String
}
