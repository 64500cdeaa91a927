import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird
import Logging

/// Turns every failure into a coded API error: Hummingbird's own errors keep their status
/// with a matching code, a database that cannot serve (``DatabaseUnavailable``) becomes 503
/// `database_unavailable` (logged with the database's reason), a row this build cannot read
/// (``StoredValueError``) and anything unexpected become 500 `unexpected_failure` (logged
/// without request data; the unreadable row's column and value are logged).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// The registered routes' methods: a known path with another method is 405, not 404.
    let routeMethods: RouteMethods

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            switch error.status {
            case .contentTooLarge:
                throw APIError(.contentTooLarge, .requestEntityTooLarge, "Request body too large")
            case .notFound:
                let allowed = routeMethods.methods(for: request.uri.path)
                guard !allowed.isEmpty else { throw APIError(.notFound, .notFound, "Not found") }
                var response = try APIError(.methodNotAllowed, .methodNotAllowed, "Method not allowed")
                    .response(from: request, context: context)
                response.headers[.allow] = allowed.joined(separator: ", ")
                return response
            case .methodNotAllowed:
                throw APIError(.methodNotAllowed, .methodNotAllowed, "Method not allowed")
            default:
                throw APIError(error.status, .unknown, error.body ?? "Request failed")
            }
        } catch let error as StoredValueError {
            // A row this build cannot read: the column and value say which row to look at.
            context.logger.error("Unreadable stored value", metadata: ["storage.error": .string(error.description)])
            throw APIError.unexpected
        } catch {
            if let unavailable = DatabaseUnavailable.classify(error) {
                context.logger.error("Database unavailable", metadata: ["database.reason": .string(unavailable.reason)])
                throw APIError.databaseUnavailable
            }
            context.logger.error("Unexpected failure", metadata: ["error.type": .string("\(type(of: error))")])
            throw APIError.unexpected
        }
    }
}
