import Foundation

/// Which `redirect_to` values `GET /verify`, `/authorize` and the PKCE e-mail flows honour: the
/// site URL's own origin, or an entry of `GATEHOUSE_URI_ALLOW_LIST` (exact scheme, host and port;
/// a path that is exact, or ends in `/*` to allow everything below it; an `http` entry on a
/// loopback IP literal allows any port, RFC 8252 §7.3). Anything else, or anything parsers could read in two
/// ways (user-info, backslashes, spaces, control or non-ASCII characters), gets the site URL.
/// Dot segments (`.` and `..`, written plainly or as `%2e`) are removed from the path as a browser
/// resolves them (RFC 3986 §5.2.4) before the comparison, so `/auth/../../x` is `/x`. The answer
/// is the URL as re-serialised from its parts, never the text the client sent.
package struct RedirectPolicy: Sendable {
    /// One allowed place.
    package struct Entry: Sendable, Equatable {
        package let scheme: String
        package let host: String
        package let port: Int?
        /// The exact path, or with ``isPrefix`` the path every allowed one starts with.
        package let path: String
        let isPrefix: Bool
        /// Whether an `http` loopback IP literal allows any port (``isLoopback``): allow-list
        /// entries do, the site URL's origin does not.
        let anyPortOnLoopback: Bool

        /// Parses an allow-list entry; `nil` when it is not a plain absolute URL.
        package init?(_ text: String, anyPortOnLoopback: Bool = true) {
            var text = text
            var isPrefix = false
            if text.hasSuffix("/*") {
                text.removeLast()
                isPrefix = true
            }
            guard let parts = RedirectPolicy.parse(text), parts.query == nil, !parts.path.contains("*") else {
                return nil
            }
            scheme = parts.scheme
            host = parts.host
            port = parts.port
            path = parts.path
            self.isPrefix = isPrefix
            self.anyPortOnLoopback = anyPortOnLoopback
        }

        /// Whether the entry is a loopback IP literal over `http` (`http://127.0.0.1/callback`,
        /// `http://[::1]/callback`): a native app's redirect (RFC 8252 §7.3), allowed on any port,
        /// since the app picks a free one at the time of the request.
        package var isLoopback: Bool {
            anyPortOnLoopback && scheme == "http" && ["127.0.0.1", "::1", "[::1]"].contains(host)
        }

        package func allows(_ url: Parts) -> Bool {
            guard url.scheme == scheme, url.host == host, url.port == port || isLoopback else { return false }
            if isPrefix { return url.path.hasPrefix(path) }
            return url.path == path || (path.isEmpty && url.path == "/") || (path == "/" && url.path.isEmpty)
        }
    }

    /// A URL's parts, as this policy reads them.
    package struct Parts: Sendable, Equatable {
        package let scheme: String
        package let host: String
        /// The explicit port, or the scheme's default.
        package let port: Int?
        /// Percent-encoded path.
        package let path: String
        package let query: String?

        /// The URL rebuilt from its parts.
        package var serialized: String {
            var components = URLComponents()
            components.scheme = scheme
            components.host = host
            components.port = port == Self.defaultPort(scheme) ? nil : port
            components.percentEncodedPath = path
            components.percentEncodedQuery = query
            return components.string ?? ""
        }

        static func defaultPort(_ scheme: String) -> Int? {
            switch scheme {
            case "https": 443
            case "http": 80
            default: nil
            }
        }
    }

    package let siteURL: String
    package let allowList: [Entry]

    /// The policy of a site at `siteURL` that also allows the places of `allowList`.
    package init(siteURL: String, allowList: [Entry]) {
        self.siteURL = siteURL
        self.allowList = allowList
    }

    /// The site URL's origin, every path on it allowed.
    private var site: Entry? { Entry(Self.origin(of: siteURL) + "/*", anyPortOnLoopback: false) }

    /// Where to send the browser for `requested`: itself, re-serialised, when allowed; else the site URL.
    package func target(_ requested: String?) -> String {
        guard let requested, let url = Self.parse(requested) else { return siteURL }
        let entries = (site.map { [$0] } ?? []) + allowList
        guard entries.contains(where: { $0.allows(url) }) else { return siteURL }
        return url.serialized
    }

    /// `scheme://host[:port]` of `url`, without its path.
    private static func origin(of url: String) -> String {
        guard let parts = parse(url) else { return url }
        return Parts(scheme: parts.scheme, host: parts.host, port: parts.port, path: "", query: nil).serialized
    }

    /// Strict parsing: printable ASCII only, no backslash, no user-info, a scheme and a host.
    package static func parse(_ text: String) -> Parts? {
        guard !text.isEmpty, text.utf8.count <= 2048,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, !text.contains("@"),
            host.allSatisfy({
                $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" || $0 == "[" || $0 == "]"
            })
        else { return nil }
        return Parts(
            scheme: scheme,
            host: host,
            port: components.port ?? Parts.defaultPort(scheme),
            path: removingDotSegments(components.percentEncodedPath),
            query: components.percentEncodedQuery
        )
    }

    /// `path` (percent-encoded) with its dot segments removed (RFC 3986 §5.2.4); `%2e` counts as
    /// a dot, since browsers decode it before resolving.
    package static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive))
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input.removeFirst(3)
            } else if input.hasPrefix("./") {
                input.removeFirst(2)
            } else if input.hasPrefix("/./") {
                input.removeFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input.removeFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // The first segment, with its leading "/", up to the next "/".
                let start = input.index(input.startIndex, offsetBy: input.hasPrefix("/") ? 1 : 0)
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
