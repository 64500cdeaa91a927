import Foundation
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id and logs one line when it is answered.
///
/// The id is the client's `X-Request-Id` when it is a plausible id (1 to 128 letters, digits,
/// `-`, `_`, `.`, `:`), else a new UUID; it is echoed in the answer and carried by every log
/// line of the request (`request_id`). The line has the route's pattern (`/admin/users/{id}`:
/// never the path or query the client sent, which can carry a token), the method, the status
/// and the duration in milliseconds.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let header = HTTPField.Name("X-Request-Id")!

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let id = request.headers[Self.header].flatMap(Self.acceptable) ?? UUID.random().uuidString.lowercased()
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        do {
            var response = try await next(request, context)
            response.headers[Self.header] = id
            log(request, context, status: response.status, since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, context, status: status, since: start)
            throw error
        }
    }

    private func log(
        _ request: Request,
        _ context: Context,
        status: HTTPResponse.Status,
        since start: ContinuousClock.Instant
    ) {
        let elapsed = start.duration(to: .now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "Request",
            metadata: [
                "route": .string(context.endpointPath ?? "unmatched"),
                "method": .string(request.method.rawValue),
                "status": .stringConvertible(Int(status.code)),
                "duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000),
            ]
        )
    }

    /// The client's id when it is short and made of safe characters (it goes into logs).
    static func acceptable(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count) else { return nil }
        let allowed = value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                true
            default: false
            }
        }
        return allowed ? value : nil
    }
}
