import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird
import NIOCore

/// Reading JSON requests and writing JSON responses with the wire coders.
enum JSONBody {
    /// The wire coders, configured once and shared (they are thread-safe).
    private static let decoder = WireCoding.makeDecoder()
    private static let encoder = WireCoding.makeEncoder()

    /// Decodes the body; malformed JSON is 400 `bad_json`, wrong shapes 400 `validation_failed`,
    /// more than 1 MiB (or `limit` bytes) 413 `request_entity_too_large`, a body declared as
    /// anything but JSON, or (unless `undeclaredIsJSON`) not declared at all, 415.
    static func decode<Value: Decodable>(
        _ type: Value.Type,
        from request: Request,
        context: some RequestContext,
        limit: Int? = nil,
        undeclaredIsJSON: Bool = false
    )
        async throws -> Value
    {
        try decode(
            type,
            from: try await body(of: request, context: context, limit: limit, undeclaredIsJSON: undeclaredIsJSON)
        )
    }

    /// The refresh grant's body: its common shape read directly (``PlainRefreshGrant``), any
    /// other by the decoder, with the same errors as ``decode(_:from:context:limit:undeclaredIsJSON:)``.
    static func refreshGrant(
        from request: Request,
        context: some RequestContext
    ) async throws
        -> RefreshTokenGrantRequest
    {
        let bytes = try await body(of: request, context: context, limit: nil, undeclaredIsJSON: false)
        if let token = PlainRefreshGrant.token(in: bytes) { return RefreshTokenGrantRequest(refreshToken: token) }
        return try decode(RefreshTokenGrantRequest.self, from: bytes)
    }

    /// Decodes the body as two values at once: a wire request and the server's own fields beside
    /// it (``ReauthenticationProof``).
    static func decode<First: Decodable, Second: Decodable>(
        _ first: First.Type,
        _ second: Second.Type,
        from request: Request,
        context: some RequestContext
    ) async throws -> (First, Second) {
        let bytes = try await body(of: request, context: context, limit: nil, undeclaredIsJSON: false)
        return (try decode(first, from: bytes), try decode(second, from: bytes))
    }

    /// The body's bytes (`{}` when empty), read once; 415 for a body declared as anything but JSON,
    /// or sent with no `Content-Type` unless `undeclaredIsJSON`.
    private static func body(
        of request: Request,
        context: some RequestContext,
        limit: Int?,
        undeclaredIsJSON: Bool
    ) async throws -> Data {
        try requireJSONContentType(request)
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit ?? context.maxUploadSize)
        } catch {
            throw APIError(.contentTooLarge, .requestEntityTooLarge, "Request body too large")
        }
        guard buffer.readableBytes > 0 else { return Data("{}".utf8) }
        // A browser sends a cross-site body with no type at all without asking first, as it does
        // `text/plain`: a body must say it is JSON.
        guard undeclaredIsJSON || request.headers[.contentType] != nil else { throw unsupportedMediaType }
        return Data(buffer.readableBytesView)
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from bytes: Data) throws -> Value {
        do {
            return try decoder.decode(Value.self, from: bytes)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                throw APIError.badJSON()
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                let field = context.codingPath.map(\.stringValue).joined(separator: ".")
                throw APIError.validation("Invalid value for \(field.isEmpty ? "body" : field)")
            case .keyNotFound(let key, _):
                throw APIError.validation("Missing \(key.stringValue)")
            @unknown default:
                throw APIError.badJSON()
            }
        } catch {
            throw APIError.badJSON()
        }
    }

    /// 415 for a body declared as anything but JSON: `text/plain` and form types are what a
    /// browser sends cross-site without a CORS preflight, so a JSON route never reads them.
    private static func requireJSONContentType(_ request: Request) throws {
        guard let value = request.headers[.contentType] else { return }
        guard MediaType.isJSON(value) else { throw unsupportedMediaType }
    }

    /// 415 `bad_json`: the body is not declared as JSON.
    private static let unsupportedMediaType = APIError(
        .unsupportedMediaType,
        .badJSON,
        "Content-Type must be application/json"
    )

    /// A JSON response of `value`.
    static func response(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        request: Request? = nil
    ) throws
        -> Response
    {
        try response(bytes: try encoder.encode(value), status: status, request: request)
    }

    /// A user's JSON response, written by ``UserJSON`` (the same bytes, for less work).
    static func response(
        _ user: WireUser,
        status: HTTPResponse.Status = .ok,
        request: Request? = nil
    ) throws
        -> Response
    {
        try response(bytes: try UserJSON.encode(user, encoder: encoder), status: status, request: request)
    }

    /// A session's JSON response, written by ``UserJSON`` (the same bytes, for less work).
    static func response(
        _ session: WireSession,
        status: HTTPResponse.Status = .ok,
        request: Request? = nil
    ) throws
        -> Response
    {
        try response(bytes: try UserJSON.encode(session, encoder: encoder), status: status, request: request)
    }

    private static func response(
        bytes data: some Sequence<UInt8>,
        status: HTTPResponse.Status,
        request: Request?
    ) throws
        -> Response
    {
        var headers = HTTPFields()
        headers[.contentType] = "application/json;charset=utf-8"
        if let request, APIVersion.wantsDatedErrors(request) {
            headers[HTTPField.Name(WireHeaders.apiVersion)!] = WireHeaders.apiVersion20240101
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An empty JSON object `{}`.
    static func empty(request: Request? = nil) throws -> Response {
        try response([String: String](), request: request)
    }
}
