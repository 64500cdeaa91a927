import GatehouseStorage
import Hummingbird

/// Verifies the bearer token of routes that need a signed-in user and puts the ``Caller``
/// (claims, live session, user) on the context; handlers read ``AppRequestContext/caller``.
struct CallerMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let authenticator: Authenticator

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.caller = try await authenticator.caller(bearer: try BearerToken.require(in: request))
        return try await next(request, context)
    }
}
