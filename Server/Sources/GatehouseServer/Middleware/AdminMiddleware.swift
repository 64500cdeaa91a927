import Hummingbird

/// Verifies the `service_role` (or `supabase_admin`) bearer token of the admin routes and puts
/// its claims on ``AppRequestContext/admin``.
struct AdminMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let authenticator: Authenticator

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.admin = try await authenticator.admin(bearer: try BearerToken.require(in: request))
        return try await next(request, context)
    }
}
