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

    /// A transport over `URLSession`: by default the process's one cache-less session
    /// (``cachelessSession``), never `URLSession.shared`, whose cache would keep answers that carry
    /// tokens and personal data.
    ///
    /// - Parameters:
    ///   - session: The URL session.
    ///   - allowsCleartext: Send to `http://` URLs whose host is not loopback. Off by default:
    ///     such a request fails with `ErrorCode.insecureConnection` before anything is sent.
    public static func urlSession(
        _ session: URLSession = HTTPTransport.cachelessSession,
        allowsCleartext: Bool = false
    ) -> HTTPTransport {
        HTTPTransport { request in
            if !allowsCleartext, let url = request.url, !isProtected(url) {
                throw AuthError(
                    code: .insecureConnection,
                    message: "The server URL \(url.scheme ?? "")://\(url.host ?? "") is not encrypted.",
                    recoverySuggestion: "Use an https:// server URL; for a server on a trusted network, opt in with "
                        + "allowsCleartext."
                )
            }
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw AuthError.invalidResponse(underlying: "not an HTTP response")
            }
            return (data, http)
        }
    }

    /// The process's URL session for auth requests, made once (each session has its own
    /// connection pool, and making one costs time at launch): ephemeral, with no URL cache and
    /// no cookie storage (``cachelessConfiguration()``).
    public static let cachelessSession = URLSession(configuration: cachelessConfiguration())

    /// An ephemeral configuration with no URL cache and no cookie storage: auth responses carry
    /// personal data and tokens, and must not land in a cache on disk.
    public static func cachelessConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return configuration
    }

    /// Whether a request to `url` is encrypted, or stays on this device: `https`, or `http` to
    /// `localhost` or a loopback address.
    static func isProtected(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http":
            let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            let isLoopbackIPv4 = octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
            return host == "localhost" || host == "::1" || isLoopbackIPv4
        default: return false
        }
    }
}
