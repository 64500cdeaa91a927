import Foundation
import GatehouseStorage
import Hummingbird

/// Counts every request of a route against its client's window before anything else runs
/// (`/token`: `GATEHOUSE_RATE_LIMIT_TOKEN` per 5 minutes); 429 with `Retry-After` when full.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let limiter: any RateLimiter
    let bucket: RateLimitBucket
    let limit: Int
    let window: TimeInterval
    let now: @Sendable () -> Date

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await limiter.hit(bucket, key: context.clientKey, limit: limit, window: window, now: now())
        return try await next(request, context)
    }
}
