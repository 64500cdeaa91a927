import Foundation
import GatehouseFlows
import GatehouseStorage
import Hummingbird

/// Counts every request of a route against its client's window before anything else runs
/// (`/token`: `GATEHOUSE_RATE_LIMIT_TOKEN` per 5 minutes); 429 with `Retry-After` when full.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let rateLimits: RateLimits
    let bucket: RateLimitBucket
    let now: @Sendable () -> Date

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await rateLimits.hit(bucket, key: context.clientKey, now: now())
        return try await next(request, context)
    }
}
