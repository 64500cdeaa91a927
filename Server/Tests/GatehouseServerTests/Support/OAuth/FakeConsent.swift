import Foundation
import GatehouseServerSupport
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The part every fake provider shares: the authorization requests waiting on the consent page
/// (a page with an Allow and a Cancel button, which a person, or a test acting as one, clicks),
/// the one-time codes the consent issues, and small HTTP helpers.
final class FakeConsent: Sendable {
    /// An authorization request, as the provider's page received it.
    struct Authorization: Sendable {
        var clientID: String
        var redirectURI: String
        var state: String?
        var nonce: String?
        var challenge: String?
        var challengeMethod: String?
        var scope: String?
    }

    /// A code the consent issued, bound to its request and to who signed in.
    struct Grant: Sendable {
        var authorization: Authorization
        var profile: FakeProfile
    }

    private let pending = Mutex<[String: Authorization]>([:])
    private let codes = Mutex<[String: Grant]>([:])
    private let counts = Mutex<[String: Int]>([:])

    /// Remembers a request and renders the consent page for it.
    func page(for authorization: Authorization, provider: String, profile: FakeProfile, action: String) -> Response {
        let id = UUID().uuidString
        pending.withLock { $0[id] = authorization }
        let html = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>\(provider): sign in</title></head>
            <body>
            <h1>Sign in to the app with \(provider)</h1>
            <p id="who">as \(Self.escape(profile.email ?? profile.subject))</p>
            <form method="post" action="\(action)">
            <input type="hidden" name="request" value="\(id)">
            <button id="allow" type="submit" name="decision" value="allow">Allow</button>
            <button id="deny" type="submit" name="decision" value="deny">Cancel</button>
            </form>
            </body></html>
            """
        return Self.html(html)
    }

    /// The request a consent form names, taken (a request is consented to once).
    func take(_ id: String?) -> Authorization? {
        guard let id else { return nil }
        return pending.withLock { $0.removeValue(forKey: id) }
    }

    /// A new code for `grant`.
    func issue(_ grant: Grant) -> String {
        let code = "code-" + UUID().uuidString.lowercased()
        codes.withLock { $0[code] = grant }
        return code
    }

    /// The grant of `code`, consumed (a code works once).
    func redeem(_ code: String?) -> Grant? {
        guard let code else { return nil }
        return codes.withLock { $0.removeValue(forKey: code) }
    }

    /// Counts an event (`token`, `user`, …) for tests to read.
    func count(_ event: String) { counts.withLock { $0[event, default: 0] += 1 } }
    func count(of event: String) -> Int { counts.withLock { $0[event] ?? 0 } }

    /// Whether the verifier proves the challenge (RFC 7636 S256 or plain).
    static func verifies(_ verifier: String?, _ challenge: String?, method: String?) -> Bool {
        guard let challenge else { return true }
        guard let verifier else { return false }
        if method?.uppercased() == "PLAIN" { return verifier == challenge }
        return FakeProvider.base64URL(Data(sha256(verifier))) == challenge
    }

    private static func sha256(_ text: String) -> [UInt8] {
        Array(Data(hex: FakeProvider.sha256Hex(text)))
    }

    // MARK: - HTTP helpers

    static func form(_ request: Request) async throws -> [String: String] {
        let buffer = try await request.body.collect(upTo: 65_536)
        return fields(String(buffer: buffer))
    }

    static func query(_ request: Request) -> [String: String] {
        fields(request.uri.query ?? "")
    }

    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    /// `Authorization: Basic` client credentials, else the form's.
    static func clientCredentials(_ request: Request, _ form: [String: String]) -> (id: String?, secret: String?) {
        if let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6))),
            let pair = String(data: data, encoding: .utf8)
        {
            let parts = pair.split(separator: ":", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { return (parts[0], parts[1]) }
        }
        return (form["client_id"], form["client_secret"])
    }

    static func json(_ status: Int, _ object: Any) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    static func html(_ text: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .found, headers: [.location: location])
    }

    /// `base` with `fields` added to its query.
    static func url(_ base: String, adding fields: [(String, String)]) -> String {
        base + (base.contains("?") ? "&" : "?") + TestBrowser.formEncoded(fields)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Who signs in at a fake provider.
struct FakeProfile: Sendable {
    var subject: String
    var email: String?
    var emailVerified: Bool = true
    var name: String? = "Ada Lovelace"
}

extension Data {
    /// Bytes from hex text.
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}

/// A value shared with a fake's event loop, captured by its routes.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}
