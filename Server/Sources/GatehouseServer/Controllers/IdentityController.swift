import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// `DELETE /user/identities/{identity_id}` (``IdentityUnlink``). Registered on the signed-in routes (``CallerRequestContext``).
struct IdentityController {
    let unlink: IdentityUnlink

    func register(on router: some RouterMethods<CallerRequestContext>) {
        router.delete("user/identities/:identity_id") { request, context in
            let id = context.parameters.get("identity_id").flatMap(UUID.init(uuidString:))
            let proof = try await JSONBody.decode(ReauthenticationProof.self, from: request, context: context)
            try await unlink(context.caller, identityID: id, nonce: proof.nonce, ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
    }
}
