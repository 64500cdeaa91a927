import GatehouseFlows
import HTTPTypes
import Hummingbird

/// Marks every answer `Cache-Control: no-store` unless its route chose a policy of its own (the
/// public key set, the API document): answers carry tokens, addresses and codes, and no cache on
/// the way (a proxy's, a browser's, a client's URL cache) may keep them (RFC 9111 §5.2.2.5).
/// Errors are answers too: it sits outside ``ErrorMiddleware``.
struct NoStoreMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
