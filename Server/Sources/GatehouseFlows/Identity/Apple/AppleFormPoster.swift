import Foundation

/// Posts a form to Apple (`application/x-www-form-urlencoded`) and hands back the status and
/// body: a seam like ``JWKSFetcher``. The live one is an ``OutboundHTTP`` `POST` with a 10-second
/// deadline, so a slow Apple never holds a request or the revocation service for long.
struct AppleFormPoster: Sendable {
    /// Apple's answer.
    struct Reply: Sendable {
        var status: Int
        var body: Data
    }

    var post: @Sendable (URL, [(String, String)]) async throws -> Reply

    static let timeout: Duration = .seconds(10)

    static let live = AppleFormPoster { url, fields in
        let response = try await OutboundHTTP(
            url: url,
            accept: "application/json",
            timeout: timeout,
            body: ("application/x-www-form-urlencoded", Data(formEncoded(fields).utf8))
        ).run()
        return Reply(status: response.status, body: response.body)
    }

    /// `name=value&…`, each part percent-encoded except the unreserved characters.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
