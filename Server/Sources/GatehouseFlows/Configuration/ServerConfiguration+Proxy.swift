import Foundation
import GatehouseServerSupport
import GatehouseStorage

extension ServerConfiguration {
    /// `GATEHOUSE_TRUSTED_PROXIES` (comma-separated addresses or CIDRs),
    /// `GATEHOUSE_RATE_LIMIT_HEADER` and `GATEHOUSE_CORS_ALLOWED_ORIGINS`.
    mutating func readProxySettings(_ reader: EnvironmentReader) throws {
        if let list = reader.string("GATEHOUSE_TRUSTED_PROXIES") {
            trustedProxies = try Self.items(list).map { item in
                guard let cidr = CIDR(item) else {
                    throw ConfigurationError(
                        variable: "GATEHOUSE_TRUSTED_PROXIES",
                        problem: "must list addresses or networks such as 10.0.0.0/8, not “\(item)”"
                    )
                }
                return cidr
            }
        }
        if let header = reader.string("GATEHOUSE_RATE_LIMIT_HEADER") {
            guard header.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw ConfigurationError(variable: "GATEHOUSE_RATE_LIMIT_HEADER", problem: "must be a header name")
            }
            rateLimitHeader = header
        }
        if rateLimitHeader != nil, trustedProxies.isEmpty {
            throw ConfigurationError(
                variable: "GATEHOUSE_RATE_LIMIT_HEADER",
                problem: "needs GATEHOUSE_TRUSTED_PROXIES: the header is believed only from those proxies"
            )
        }
        if let origins = reader.string("GATEHOUSE_CORS_ALLOWED_ORIGINS") {
            corsAllowedOrigins = try Self.items(origins).map { origin in
                guard origin == "*" || Self.isOrigin(origin) else {
                    throw ConfigurationError(
                        variable: "GATEHOUSE_CORS_ALLOWED_ORIGINS",
                        problem: "must list origins such as https://app.example.com, not “\(origin)”"
                    )
                }
                return origin
            }
        }
    }

    /// The trusted proxies as text.
    public var trustedProxyNetworks: [String] { trustedProxies.map(\.description) }

    private static func items(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `scheme://host[:port]` with nothing after it.
    private static func isOrigin(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            ["http", "https"].contains(scheme), components.host?.isEmpty == false
        else { return false }
        return components.path.isEmpty && components.query == nil && components.fragment == nil
            && components.user == nil
    }
}
