import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET as a browser sends it, without following a redirect, so that a test sees (and
/// takes) each step of a sign-in through a provider's page itself.
final class PageFetcher: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    struct Page {
        var status: Int
        var headers: [String: String]
        var body: String

        /// The redirect's target.
        var location: URL {
            get throws {
                guard let text = headers["location"], let url = URL(string: text) else {
                    throw ContractFailure.unexpected("no redirect (\(status)): \(body.prefix(200))")
                }
                return url
            }
        }

        /// The `href` of the element with this `id` (`<a id="allow" href="…">`).
        func link(id: String) throws -> URL {
            let pattern = #"id="\#(id)" href="([^"]*)""#
            guard let range = body.range(of: pattern, options: .regularExpression) else {
                throw ContractFailure.unexpected("no #\(id) on the page: \(body.prefix(200))")
            }
            let href = body[range].split(separator: "href=\"", maxSplits: 1)[1].dropLast()
            guard let url = URL(string: href.replacingOccurrences(of: "&amp;", with: "&")) else {
                throw ContractFailure.unexpected("#\(id)'s address is not a URL")
            }
            return url
        }
    }

    static func fetch(_ url: URL) async throws -> Page {
        let delegate = PageFetcher()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, timeoutInterval: 20)
        request.httpMethod = "GET"
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ContractFailure.unexpected("not HTTP") }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
        return Page(status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
