import GatehouseFlows
import GatehouseServerSupport
import HTTPTypes
import Hummingbird

/// Every console answer, errors included, carries the console's security headers: a
/// Content-Security-Policy of the console's own origin only (no inline script or style, no
/// framing, forms post only to it), no MIME sniffing, no referrer beyond the origin. An
/// ``APIError`` raised on the way (413 for a huge body, 404) becomes a console page.
struct ConsoleHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let contentSecurityPolicy =
        "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            let page = ConsoleLayout.page(
                title: error.status == .notFound ? "Not found" : "Refused",
                operator: nil,
                content: ConsoleLayout.notice(error.message, isError: true)
            )
            response = ConsoleResponse.html(page, status: error.status)
            if let wait = error.retryAfter { response.headers[.retryAfter] = String(wait) }
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return response
    }
}
