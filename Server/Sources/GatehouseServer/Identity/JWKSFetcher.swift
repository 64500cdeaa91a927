import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a provider's key set: a seam (swift-dependencies style) so tests can count or
/// fail fetches. The live one uses URLSession with a 10 s timeout.
struct JWKSFetcher: Sendable {
    /// The fetched document.
    struct Document: Sendable {
        var body: Data
        /// `Cache-Control: max-age`, when the provider sent one.
        var maxAge: TimeInterval?
    }

    var fetch: @Sendable (URL) async throws -> Document

    static let live = JWKSFetcher { url in
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return Document(body: data, maxAge: maxAge(http.value(forHTTPHeaderField: "Cache-Control")))
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
