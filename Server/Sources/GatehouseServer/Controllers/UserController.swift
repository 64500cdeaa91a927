import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The signed-in caller's own account: `GET|PUT|DELETE /user`, `POST /logout`,
/// `GET /reauthenticate`. Registered on the signed-in routes (``CallerRequestContext``).
struct UserController {
    let update: UserUpdate
    let deletion: AccountDeletion
    let logout: Logout
    let reauthentication: Reauthentication
    /// Where a PKCE address change's links may land (`redirect_to`).
    let redirects: RedirectPolicy

    /// The optional body of `DELETE /user`.
    struct DeleteUserRequest: Decodable {
        var nonce: String?
    }

    func register(on router: some RouterMethods<CallerRequestContext>) {
        router.get("user") { request, context in
            try JSONBody.response(context.caller.user.wire, request: request)
        }
        router.put("user") { request, context in
            let (body, fields) = try await JSONBody.decode(
                UpdateUserRequest.self,
                PKCEFields.self,
                from: request,
                context: context
            )
            let pkce = try EmailPKCE.from(
                fields,
                redirectTo: request.uri.queryParameters.get("redirect_to"),
                policy: redirects
            )
            let updated = try await update(body, caller: context.caller, pkce: pkce, ip: context.clientKey)
            return try JSONBody.response(updated.wire, request: request)
        }
        router.delete("user") { request, context in
            let body = try await JSONBody.decode(DeleteUserRequest.self, from: request, context: context)
            try await deletion(context.caller, nonce: body.nonce, ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
        router.post("logout") { request, context in
            let scope: LogoutScope
            switch request.uri.queryParameters.get("scope") {
            case nil, "global": scope = .global
            case "local": scope = .local
            case "others": scope = .others
            default: throw APIError.validation("Unsupported logout scope")
            }
            let proof = try await JSONBody.decode(ReauthenticationProof.self, from: request, context: context)
            try await logout(context.caller, scope: scope, nonce: proof.nonce, ip: context.clientKey)
            return Response(status: .noContent)
        }
        router.get("reauthenticate") { request, context in
            try await reauthentication(context.caller, ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
    }
}
