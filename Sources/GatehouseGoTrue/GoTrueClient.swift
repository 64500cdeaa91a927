import Foundation
import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds GoTrue requests, sends them, and turns every answer into a value or an ``AuthError``.
struct GoTrueClient: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
        case patch = "PATCH"
    }

    static let clientInfo = "gatehouse-swift/0.1.0"

    let configuration: GoTrueBackend.Configuration
    let transport: HTTPTransport

    func send<Reply: Decodable>(
        _ method: Method,
        _ path: String,
        query: [String: String] = [:],
        body: (any Encodable & Sendable)? = nil,
        bearer: String? = nil,
        idempotent: Bool = false
    ) async throws -> Reply {
        let request = try makeRequest(method, path, query: query, body: body, bearer: bearer)
        let (data, response) = try await perform(request, attempts: idempotent ? 2 : 1)
        return try decode(Reply.self, data: data, response: response)
    }

    func makeRequest(
        _ method: Method,
        _ path: String,
        query: [String: String],
        body: (any Encodable & Sendable)?,
        bearer: String?
    ) throws -> URLRequest {
        guard var components = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false) else {
            throw AuthError.validationFailed("The server URL \(configuration.url) is not valid.")
        }
        components.path = components.path.hasSuffix("/") ? components.path + path : components.path + "/" + path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = components.url else {
            throw AuthError.validationFailed("The server URL \(configuration.url) is not valid.")
        }
        var request = URLRequest(
            url: url,
            cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
            timeoutInterval: configuration.timeout
        )
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(WireHeaders.apiVersion20240101, forHTTPHeaderField: WireHeaders.apiVersion)
        request.setValue(Self.clientInfo, forHTTPHeaderField: WireHeaders.clientInfo)
        if let apiKey = configuration.apiKey {
            request.setValue(apiKey, forHTTPHeaderField: WireHeaders.apiKey)
        }
        if let token = bearer ?? configuration.apiKey {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let body {
            request.setValue("application/json;charset=UTF-8", forHTTPHeaderField: "Content-Type")
            request.httpBody = try WireCoding.makeEncoder().encode(body)
        }
        return request
    }

    private func perform(_ request: URLRequest, attempts: Int) async throws -> (Data, HTTPURLResponse) {
        var attempt = 1
        while true {
            do {
                return try await transport.send(request)
            } catch {
                let mapped = Self.transportError(error)
                guard attempt < attempts, TransportErrorMapping.allowsRetry(mapped) else { throw mapped }
                attempt += 1
            }
        }
    }

    static func transportError(_ error: any Error) -> AuthError {
        TransportErrorMapping.authError(for: error)
    }

    func decode<Reply: Decodable>(_ type: Reply.Type, data: Data, response: HTTPURLResponse) throws -> Reply {
        let status = response.statusCode
        guard data.count <= configuration.maximumResponseSize else {
            throw AuthError.invalidResponse(status: status, underlying: "response body of \(data.count) bytes")
        }
        guard (200..<300).contains(status) else {
            throw Self.serverError(status: status, data: data, headers: response)
        }
        if Reply.self == EmptyReply.self, let empty = EmptyReply() as? Reply { return empty }
        do {
            return try WireCoding.makeDecoder().decode(Reply.self, from: data)
        } catch {
            throw AuthError.invalidResponse(status: status, underlying: "decoding \(Reply.self): \(error)")
        }
    }

    static func serverError(status: Int, data: Data, headers: HTTPURLResponse) -> AuthError {
        let body = try? WireCoding.makeDecoder().decode(WireErrorBody.self, from: data)
        let headerCode = headers.value(forHTTPHeaderField: WireHeaders.errorCode).map(ErrorCode.init(rawValue:))
        let fallback: ErrorCode =
            status == 429
            ? .overRequestRateLimit
            : status >= 500 ? .unexpectedFailure : status == 413 ? .requestEntityTooLarge : .unknown
        let code = body?.code ?? headerCode ?? fallback
        let retryAfter = headers.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init)
        var message = body?.message ?? ""
        if message.isEmpty { message = "The server answered HTTP \(status)." }
        if status == 429 {
            let wait = retryAfter.map { " Try again in \(Int($0.rounded(.up))) seconds." } ?? " Try again later."
            message = "Too many requests.\(wait)"
        }
        return AuthError(
            code: code,
            message: message,
            recoverySuggestion: ServerErrorAdvice.suggestion(for: code, status: status),
            isRetryable: status == 429 || status == 408 || status >= 500 || code == .conflict,
            httpStatus: status,
            retryAfter: retryAfter,
            underlying: body == nil ? "unparseable error body of \(data.count) bytes" : nil
        )
    }
}
