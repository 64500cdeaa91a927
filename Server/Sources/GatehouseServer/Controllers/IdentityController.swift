import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// `DELETE /user/identities/{identity_id}`: unlinks a provider identity, never the last way
/// to sign in.
struct IdentityController {
    let auth: AuthContext

    func register(on router: Router<AppRequestContext>) {
        router.delete("user/identities/:identity_id") { request, context in try await unlink(request, context) }
    }

    func unlink(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let caller = try await auth.caller(request)
        let notFound = APIError(.notFound, .identityNotFound, "Identity doesn't exist")
        guard let text = context.parameters.get("identity_id"), let id = UUID(uuidString: text) else {
            throw notFound
        }
        let user = caller.user
        if id == user.id, user.hasEmailIdentity {
            // The e-mail identity is the account's address and password: change those instead.
            throw APIError(
                .unprocessableContent,
                .singleIdentityNotDeletable,
                "The e-mail identity cannot be unlinked; change the address or password with PUT /user."
            )
        }
        guard let identity = user.identities.first(where: { $0.id == id }) else { throw notFound }
        let remaining = user.identities.count - 1 + (user.hasEmailIdentity ? 1 : 0)
        guard remaining > 0 else {
            throw APIError(
                .unprocessableContent,
                .singleIdentityNotDeletable,
                "This is the account's only way to sign in; link another before unlinking it."
            )
        }
        let ip = context.clientKey
        try await auth.storage.transaction { tx in
            guard try await tx.deleteIdentity(id: identity.id, userID: user.id) else { throw notFound }
            try await auth.audit("identity_unlinked", actor: user.id, ip: ip, detail: identity.provider, in: tx)
        }
        return try JSONBody.empty(request: request)
    }
}
