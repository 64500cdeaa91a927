import Foundation
import GatehouseServerSupport
import GatehouseStorage

extension ServerConfiguration {
    /// The base of every link the server hands out: `GATEHOUSE_API_EXTERNAL_URL`, else
    /// `http://<host>:<port>`.
    public var externalURL: String {
        if let apiExternalURL { return apiExternalURL }
        let host = host.contains(":") ? "[\(host)]" : host
        return "http://\(host):\(port)"
    }

    /// `GATEHOUSE_API_EXTERNAL_URL` and `GATEHOUSE_URI_ALLOW_LIST`.
    mutating func readLinkSettings(_ reader: EnvironmentReader) throws {
        if let text = reader.string("GATEHOUSE_API_EXTERNAL_URL") {
            let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
            guard let parts = RedirectPolicy.parse(trimmed), ["http", "https"].contains(parts.scheme),
                parts.query == nil
            else {
                throw ConfigurationError(
                    variable: "GATEHOUSE_API_EXTERNAL_URL",
                    problem: "must be an http(s) URL such as https://auth.example.com, not “\(text)”"
                )
            }
            apiExternalURL = trimmed
        }
        if let list = reader.string("GATEHOUSE_URI_ALLOW_LIST") {
            uriAllowList = try list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .map { item in
                    guard let entry = RedirectPolicy.Entry(item) else {
                        throw ConfigurationError(
                            variable: "GATEHOUSE_URI_ALLOW_LIST",
                            problem: "must list URLs such as https://app.example.com/auth/* (* only as the whole "
                                + "last path segment), not “\(item)”"
                        )
                    }
                    return entry
                }
        }
    }
}
