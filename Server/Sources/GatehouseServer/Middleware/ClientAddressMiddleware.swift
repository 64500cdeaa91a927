import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// Puts the client's address on ``AppRequestContext/clientIP``: the socket peer, or the
/// configured header's rightmost untrusted hop when the peer is a trusted proxy
/// (``ClientAddress``). Runs first, so every limit and audit line uses it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let rule: ClientAddress

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let values = rule.header.flatMap { HTTPField.Name($0) }.map { request.headers[values: $0] } ?? []
        context.clientIP = rule.derive(peer: context.remoteAddress?.ipAddress, headerValues: values)
        return try await next(request, context)
    }
}
