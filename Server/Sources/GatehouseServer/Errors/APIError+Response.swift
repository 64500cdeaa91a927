import Foundation
import GatehouseCore
import GatehouseFlows
public import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
public import Hummingbird

extension APIError: HTTPResponseError {
    /// Renders the error in the envelope the request asked for, with `x-sb-error-code`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let versioned = APIVersion.wantsDatedErrors(request)
        let body = WireErrorBody(
            code: code,
            message: message,
            weakPassword: weakPassword,
            envelope: versioned ? .v20240101 : .legacy(status: Int(status.code))
        )
        var headers = HTTPFields()
        headers[.contentType] = "application/json;charset=utf-8"
        headers[HTTPField.Name(WireHeaders.errorCode)!] = code.rawValue
        if versioned {
            headers[HTTPField.Name(WireHeaders.apiVersion)!] = WireHeaders.apiVersion20240101
        }
        if let retryAfter {
            headers[.retryAfter] = String(retryAfter)
        }
        let data = (try? WireCoding.makeEncoder().encode(body)) ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The `X-Supabase-Api-Version` request header.
enum APIVersion {
    static func wantsDatedErrors(_ request: Request) -> Bool {
        guard let name = HTTPField.Name(WireHeaders.apiVersion), let value = request.headers[name] else { return false }
        return value >= WireHeaders.apiVersion20240101
    }
}
