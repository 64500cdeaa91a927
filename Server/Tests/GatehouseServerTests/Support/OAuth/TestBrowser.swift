import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser's side of a sign-in, over real HTTP on loopback, one connection per request: it
/// follows nothing by itself, so a test sees (and can bend) every redirect.
struct TestBrowser: Sendable {
    /// One answer.
    struct Page: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: String

        /// `Location`, for a redirect.
        var location: String? { headers[.location] }

        /// The value of the hidden input `name` of a page's form.
        func hidden(_ name: String) -> String? {
            let pattern = #"name="\#(name)" value="([^"]*)""#
            guard let range = body.range(of: pattern, options: .regularExpression) else { return nil }
            let match = String(body[range])
            guard let start = match.range(of: #"value=""#)?.upperBound else { return nil }
            return String(match[start...].dropLast()).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    var timeout: Duration = .seconds(60)

    func get(_ url: String, headers: [String: String] = [:]) async throws -> Page {
        try await send(.get, url, body: nil, headers: headers)
    }

    /// A form post (`application/x-www-form-urlencoded`).
    func post(_ url: String, form: [(String, String)], headers: [String: String] = [:]) async throws -> Page {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await send(.post, url, body: TestBrowser.formEncoded(form), headers: headers)
    }

    /// A JSON post.
    func post(_ url: String, json: String, headers: [String: String] = [:]) async throws -> Page {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send(.post, url, body: json, headers: headers)
    }

    private func send(
        _ method: HTTPRequest.Method,
        _ url: String,
        body: String?,
        headers: [String: String]
    ) async throws
        -> Page
    {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else {
            throw TestBrowserError.badURL(url)
        }
        var target = parsed.path.isEmpty ? "/" : parsed.path
        if let query = parsed.query { target += "?" + query }
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        let request = TestClient.Request(
            target,
            method: method,
            authority: "\(host):\(port)",
            headers: fields,
            body: body.map { ByteBuffer(string: $0) }
        )
        let response = try await TestClient.withClient(host: host, port: port, configuration: .init(timeout: timeout)) {
            try await $0.execute(request)
        }
        return Page(
            status: Int(response.status.code),
            headers: response.headers,
            body: String(buffer: response.body ?? ByteBuffer())
        )
    }

    /// `name=value&…`, form-encoded.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return fields.map {
            ($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }

    /// The query (or, with `fragment`, the fragment) fields of `url`.
    static func fields(of url: String, fragment: Bool = false) -> [String: String] {
        let part: Substring
        if fragment {
            guard let hash = url.firstIndex(of: "#") else { return [:] }
            part = url[url.index(after: hash)...]
        } else {
            let beforeHash = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let mark = beforeHash.firstIndex(of: "?") else { return [:] }
            part = beforeHash[beforeHash.index(after: mark)...]
        }
        var fields: [String: String] = [:]
        for pair in part.split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            fields[decode(halves[0])] = halves.count > 1 ? decode(halves[1]) : ""
        }
        return fields
    }
}

enum TestBrowserError: Error {
    case badURL(String)
}
