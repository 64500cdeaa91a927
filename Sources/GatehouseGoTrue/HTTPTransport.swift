public import Foundation
import Gatehouse

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends one HTTP request: the seam between ``GoTrueBackend`` and the network.
///
/// ```swift
/// // In a test: answer every request with a canned response.
/// let transport = HTTPTransport { request in
///     (Data(#"{"access_token": ...}"#.utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
/// }
/// ```
public struct HTTPTransport: Sendable {
    /// Performs the request and returns the body and response, or throws a transport error.
    public var send: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Creates a transport from a closure.
    public init(send: @escaping @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)) {
        self.send = send
    }

    /// A transport over `URLSession`.
    public static func urlSession(_ session: URLSession = .shared) -> HTTPTransport {
        HTTPTransport { request in
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw AuthError.invalidResponse(underlying: "not an HTTP response")
            }
            return (data, http)
        }
    }
}
