import GatehouseFlows
import GatehouseServerSupport
import HTTPTypes
import Hummingbird

/// The `Authorization: Bearer <token>` header, read by the authentication middleware only.
enum BearerToken {
    /// The bearer token of `request`, or `nil` when there is none or it is not a bearer.
    static func find(in request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }

    /// The bearer token of `request`, or 401 `no_authorization`.
    static func require(in request: Request) throws -> String {
        guard let token = find(in: request) else { throw APIError.noAuthorization }
        return token
    }
}
