import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// CORS for browser clients: an allowed `Origin` (`GATEHOUSE_CORS_ALLOWED_ORIGINS`, exact
/// match; `*` for any) gets `Access-Control-Allow-Origin` naming it; a preflight (`OPTIONS`
/// with `Access-Control-Request-Method`) is answered 204 here, with the methods and the headers
/// the Supabase clients send. Other origins get no CORS headers, so browsers keep the
/// answers from them; no credentials (cookies) are ever allowed.
struct BrowserOriginMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// The request headers the Supabase clients send.
    static let allowedHeaders = [
        "authorization", "apikey", "content-type", "accept", "x-client-info", "x-supabase-api-version",
        "x-supabase-client-platform", "x-supabase-client-platform-version", "x-supabase-client-runtime",
        "x-supabase-client-runtime-version", "x-retry-count",
    ]
    .joined(separator: ", ")

    let allowedOrigins: [String]

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let origin = request.headers[.origin]
        let allowed = origin.map { origin in allowedOrigins.contains { $0 == "*" || $0 == origin } } ?? false
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var response = Response(status: .noContent)
            if allowed, let origin {
                response.headers[.accessControlAllowOrigin] = origin
                response.headers[.accessControlAllowMethods] = "GET, POST, PUT, DELETE, OPTIONS"
                response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
                response.headers[.accessControlMaxAge] = "86400"
            }
            response.headers[.vary] = "Origin"
            return response
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        }
        if allowed, let origin {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "x-sb-error-code, x-supabase-api-version, retry-after"
        }
        if !allowedOrigins.isEmpty { response.headers[.vary] = "Origin" }
        return response
    }
}
