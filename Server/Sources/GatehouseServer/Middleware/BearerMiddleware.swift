import Hummingbird

/// Puts the request's bearer token, unverified, on ``AppRequestContext/bearer`` for a route
/// that needs a caller only sometimes (`POST /token?grant_type=id_token` with `link_identity`):
/// clients may send an API key on every call, so nothing is verified until a flow asks.
struct BearerMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.bearer = BearerToken.find(in: request)
        return try await next(request, context)
    }
}
