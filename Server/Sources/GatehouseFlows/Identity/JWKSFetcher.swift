import Foundation

/// Downloads a provider's key set: a seam (swift-dependencies style) so tests can count or
/// fail fetches. The live one is a plain HTTP/1.1 GET on SwiftNIO (``OutboundHTTP``), 10 s in all.
struct JWKSFetcher: Sendable {
    /// The fetched document.
    struct Document: Sendable {
        var body: Data
        /// `Cache-Control: max-age`, when the provider sent one.
        var maxAge: TimeInterval?
    }

    var fetch: @Sendable (URL) async throws -> Document

    static let live = JWKSFetcher { url in
        let response = try await OutboundHTTP(url: url, accept: "application/json", timeout: .seconds(10)).run()
        guard response.status == 200 else { throw OutboundHTTP.Failure.status(response.status) }
        return Document(body: response.body, maxAge: maxAge(response.header("Cache-Control")))
    }

    /// The `max-age` of a `Cache-Control` value.
    static func maxAge(_ header: String?) -> TimeInterval? {
        guard let header else { return nil }
        for directive in header.split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Double(parts[1]), seconds >= 0 {
                return seconds
            }
        }
        return nil
    }
}
