import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import Hummingbird

/// The console exists only once an operator does: before that every console address answers
/// 404, as it does when `GATEHOUSE_CONSOLE_ENABLED=false` (then its routes are not registered).
struct ConsoleGateMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let storage: any AuthStorage

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard try await storage.read({ try await $0.hasOperators() }) else {
            throw APIError(.notFound, .notFound, "Not found")
        }
        return try await next(request, context)
    }
}
