import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts a form to Apple (`application/x-www-form-urlencoded`) and hands back the status and
/// body: a seam like ``JWKSFetcher``. The live one uses URLSession with a 10-second timeout,
/// so a slow Apple never holds a request or the revocation service for long.
struct AppleFormPoster: Sendable {
    /// Apple's answer.
    struct Reply: Sendable {
        var status: Int
        var body: Data
    }

    var post: @Sendable (URL, [(String, String)]) async throws -> Reply

    static let timeout: TimeInterval = 10

    static let live = AppleFormPoster { url, fields in
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(formEncoded(fields).utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return Reply(status: http.statusCode, body: data)
    }

    /// `name=value&…`, each part percent-encoded except the unreserved characters.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
