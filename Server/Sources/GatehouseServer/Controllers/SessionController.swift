import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The caller's sessions, one per signed-in device: `GET /user/sessions` and
/// `DELETE /user/sessions/{id}`. Registered on the signed-in routes (``CallerRequestContext``).
struct SessionController {
    let listing: SessionListing
    let ending: SessionEnding

    func register(on router: some RouterMethods<CallerRequestContext>) {
        router.get("user/sessions") { request, context in
            try JSONBody.response(
                try await listing(context.caller, ip: context.clientKey),
                request: request
            )
        }
        router.delete("user/sessions/:id") { request, context in
            let body = try await JSONBody.decode(EndSessionRequest.self, from: request, context: context)
            let id = context.parameters.get("id").flatMap(UUID.init(uuidString:))
            try await ending(id, caller: context.caller, nonce: body.nonce, ip: context.clientKey)
            return Response(status: .noContent)
        }
    }
}
