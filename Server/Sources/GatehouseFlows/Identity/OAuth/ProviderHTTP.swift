import Foundation
import GatehouseStorage

/// Requests to a sign-in provider (its discovery document, token endpoint and user endpoints): a
/// seam like ``JWKSFetcher``, so tests can count or fail them. The live one is an
/// ``OutboundHTTP`` exchange with a 10-second deadline and a 1 MiB answer at most, so a slow or
/// hostile provider never holds a callback for long.
struct ProviderHTTP: Sendable {
    /// The provider's answer.
    struct Reply: Sendable {
        var status: Int
        var body: Data
        /// `Cache-Control` of the answer.
        var cacheControl: String?
    }

    /// One request: a `GET` (no form) or a form `POST`, with extra headers.
    var send:
        @Sendable (_ url: URL, _ form: [(String, String)]?, _ headers: [(name: String, value: String)]) async throws ->
            Reply

    static let timeout: Duration = .seconds(10)

    static let live = ProviderHTTP { url, form, headers in
        let response = try await OutboundHTTP(
            url: url,
            accept: "application/json",
            timeout: timeout,
            body: form.map { ("application/x-www-form-urlencoded", Data(AppleFormPoster.formEncoded($0).utf8)) },
            headers: headers + [(name: "User-Agent", value: "Gatehouse")]
        ).run()
        return Reply(status: response.status, body: response.body, cacheControl: response.header("Cache-Control"))
    }

    /// `GET url` with `headers`.
    func get(_ url: URL, headers: [(name: String, value: String)] = []) async throws -> Reply {
        try await send(url, nil, headers)
    }

    /// `POST url` with the form `fields` and `headers`.
    func post(
        _ url: URL,
        _ fields: [(String, String)],
        headers: [(name: String, value: String)] = []
    ) async throws
        -> Reply
    {
        try await send(url, fields, headers)
    }
}
