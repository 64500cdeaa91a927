import Foundation
import GatehouseServerSupport
import HTTPTypes

@testable import GatehouseFlows
@testable import GatehouseServer

/// A browser's part in the console tests, over real HTTP: it keeps the console's cookies, reads
/// each page's CSRF token, and posts forms as a browser does (`application/x-www-form-urlencoded`).
final class ConsoleVisitor: @unchecked Sendable {
    let client: Client
    private let lock = NSLock()
    private var jar: [String: String] = [:]

    init(_ client: Client) {
        self.client = client
    }

    /// The cookies it holds, by name.
    var cookies: [String: String] {
        get { lock.withLock { jar } }
        set { lock.withLock { jar = newValue } }
    }

    var cookieHeader: String {
        cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    @discardableResult
    func get(_ path: String) async throws -> Reply {
        let reply = try await client.send(.get, path, headers: cookies.isEmpty ? [:] : ["Cookie": cookieHeader])
        keep(reply)
        return reply
    }

    /// Posts `fields` as a form (each name and value percent-encoded).
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)]) async throws -> Reply {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if !cookies.isEmpty { headers["Cookie"] = cookieHeader }
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        let reply = try await client.send(.post, path, json: body, headers: headers)
        keep(reply)
        return reply
    }

    /// Posts `fields` with the CSRF token of the page at `page` (read first).
    @discardableResult
    func submit(_ path: String, from page: String, _ fields: [(String, String)] = []) async throws -> Reply {
        let csrf = Self.csrf(in: try await get(page).text) ?? ""
        return try await post(path, [("csrf", csrf)] + fields)
    }

    /// Signs in on the sign-in page: its form cookie and CSRF token, then the form.
    @discardableResult
    func signIn(
        _ email: String,
        password: String = "correct horse battery",
        code: String,
        next: String? = nil
    )
        async throws -> Reply
    {
        let page = try await get("/console/sign-in" + (next.map { "?next=\(Self.encode($0))" } ?? ""))
        let csrf = Self.csrf(in: page.text) ?? ""
        var fields = [("csrf", csrf), ("email", email), ("password", password), ("code", code)]
        if let next { fields.append(("next", next)) }
        return try await post("/console/sign-in", fields)
    }

    /// The `Set-Cookie` values of a reply.
    static func setCookies(_ reply: Reply) -> [String] {
        reply.headers[values: .setCookie]
    }

    /// The value of the first `name="csrf"` field of a page.
    static func csrf(in html: String) -> String? {
        guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    private func keep(_ reply: Reply) {
        for header in Self.setCookies(reply) {
            let pair = header.split(separator: ";", maxSplits: 1)[0]
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = String(parts[0])
            let value = String(parts[1])
            lock.withLock {
                if value.isEmpty || header.contains("Max-Age=0") { jar[name] = nil } else { jar[name] = value }
            }
        }
    }
}

/// An operator: a confirmed user with a verified authenticator app, granted the role.
struct ConsoleOperatorAccount {
    var email: String
    var app: ReferenceTOTP
    var factorID: String
    /// The AAL2 API session the account was made with.
    var session: Reply

    /// A fresh code: the clock moves on one 30 s step first, since a code is accepted once.
    func code(_ clock: TestClock) -> String {
        clock.advance(by: 30)
        return app.code(at: clock.now())
    }

    static func make(
        _ email: String,
        _ client: Client,
        _ harness: Harness,
        grant: Bool = true
    ) async throws
        -> ConsoleOperatorAccount
    {
        let (session, factor) = try await client.userWithFactor(email, clock: harness.clock)
        if grant {
            try await OperatorRoles.grant(email: email, storage: harness.server.storage, now: harness.clock.now())
        }
        return ConsoleOperatorAccount(email: email, app: factor.app, factorID: factor.id, session: session)
    }
}
