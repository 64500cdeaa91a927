public import Foundation
import GatehouseCore

/// One sign-in through a provider's page (GitHub, Google, an OpenID Connect provider…), from its
/// start to the redirect back: the provider, the app's redirect URL with a fresh `state` in its
/// query, and the PKCE verifier. Platform-neutral; the browser part is a
/// ``ProviderSignInBrowser``.
///
/// The server (GoTrue's `GET /authorize`) sends the browser to the provider and back to
/// ``redirectURL`` with `?code=` (or `?error=…`); ``result(of:)`` reads that redirect, refusing
/// one that is not this flow's (another `state`, another address), and the code is worth a
/// session only with ``pkce``'s verifier.
///
/// ```swift
/// let flow = try ProviderSignInFlow(provider: "github", redirectTo: URL(string: "myapp://auth")!)
/// // open try await backend.providerSignInURL(for: flow), wait for the redirect, then:
/// if case .code(let code) = try flow.result(of: redirect) {
///     let session = try await backend.exchangeAuthCode(code, verifier: flow.pkce.verifier)
/// }
/// ```
public struct ProviderSignInFlow: Sendable, Equatable {
    /// The provider's name as the server's operator configured it (`github`, `google`, `keycloak`).
    public let provider: String
    /// Scopes to ask for besides the provider's own.
    public let scopes: [String]
    /// Where the server sends the browser at the end: the app's redirect URL with `state` added
    /// to its query.
    public let redirectURL: URL
    /// The random value in ``redirectURL`` that the redirect back must carry.
    public let state: String
    /// The PKCE verifier; its challenge goes to the server, the verifier only to the exchange.
    public let pkce: PKCEVerifier

    /// Starts a flow with a fresh `state` and verifier.
    ///
    /// - Parameters:
    ///   - provider: The provider's name: letters, digits and `_` (GoTrue's provider names).
    ///   - scopes: Scopes to ask for besides the provider's own (no spaces or commas inside one).
    ///   - redirectTo: The app's redirect URL: a custom scheme (`myapp://auth-callback`), an
    ///     `https` universal link, or a loopback `http://127.0.0.1:<port>/callback`; the server's
    ///     allow list must name it. Its fragment is dropped.
    /// - Throws: ``ErrorCode/validationFailed`` for an empty or malformed provider name or scope,
    ///   or a redirect URL without a scheme.
    public init(provider: String, scopes: [String] = [], redirectTo: URL) throws {
        try self.init(provider: provider, scopes: scopes, redirectTo: redirectTo, state: Self.newState(), pkce: PKCEVerifier())
    }

    /// A flow with a given `state` and verifier (tests).
    init(provider: String, scopes: [String], redirectTo: URL, state: String, pkce: PKCEVerifier) throws {
        let provider = provider.trimmingCharacters(in: .whitespaces).lowercased()
        guard !provider.isEmpty, provider.utf8.count <= 64,
            provider.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") })
        else {
            throw AuthError.validationFailed("Name a provider the server has (letters, digits and _).")
        }
        let scopes = scopes.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard scopes.allSatisfy({ !$0.contains(where: { $0 == " " || $0 == "," }) }) else {
            throw AuthError.validationFailed("A scope holds no space or comma: pass each scope apart.")
        }
        guard var components = URLComponents(url: redirectTo, resolvingAgainstBaseURL: false), components.scheme != nil
        else {
            throw AuthError.validationFailed("The redirect URL needs a scheme (myapp://…, https://…).")
        }
        components.fragment = nil
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "state" } + [URLQueryItem(name: "state", value: state)]
        guard let redirectURL = components.url else {
            throw AuthError.validationFailed("The redirect URL could not be read.")
        }
        self.provider = provider
        self.scopes = scopes
        self.redirectURL = redirectURL
        self.state = state
        self.pkce = pkce
    }

    /// Whether `url` goes where ``redirectURL`` does (same scheme, host, port and path), whatever
    /// its query: a browser adapter stops at such a URL.
    public func isRedirect(_ url: URL) -> Bool {
        guard let expected = URLComponents(url: redirectURL, resolvingAgainstBaseURL: false),
            let actual = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        return actual.scheme?.lowercased() == expected.scheme?.lowercased()
            && (actual.host ?? "").lowercased() == (expected.host ?? "").lowercased()
            && actual.port == expected.port
            && Self.path(actual) == Self.path(expected)
    }

    /// Reads the redirect back from the server.
    ///
    /// - Returns: ``ProviderCallback/code(_:)`` with the `auth_code` to exchange, or
    ///   ``ProviderCallback/declined`` when the person declined at the provider (`access_denied`).
    /// - Throws: ``ErrorCode/badOAuthState`` when `url` is not this flow's redirect (another
    ///   address, no `state` or another one: a forged or stale redirect); the server's code and
    ///   message for any other error it sent (`error_code`, `error_description`);
    ///   ``ErrorCode/invalidResponse`` for a redirect with neither a code nor an error (a server
    ///   that answered with the implicit flow's tokens).
    public func result(of url: URL) throws -> ProviderCallback {
        guard isRedirect(url) else {
            throw AuthError(
                code: .badOAuthState,
                message: "The sign-in came back to another address than it was sent to.",
                recoverySuggestion: "Start the sign-in again."
            )
        }
        let query = Self.fields(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        guard query["state"] == state else {
            throw AuthError(
                code: .badOAuthState,
                message: "The sign-in's answer belongs to another sign-in.",
                recoverySuggestion: "Start the sign-in again from this app."
            )
        }
        // GoTrue puts an error in the query and the fragment; the query is enough.
        if let error = query["error"] ?? query["error_code"] {
            let code = query["error_code"].map(ErrorCode.init(rawValue:)) ?? ErrorCode(rawValue: error)
            if code == .accessDenied || error == "access_denied" { return .declined }
            throw AuthError(
                code: code,
                message: query["error_description"].flatMap { $0.isEmpty ? nil : $0 } ?? "The sign-in failed (\(error)).",
                recoverySuggestion: "Try again, or sign in another way."
            )
        }
        guard let code = query["code"], !code.isEmpty else {
            throw AuthError.invalidResponse(underlying: "the sign-in's redirect has no code")
        }
        return .code(code)
    }

    /// 32 random bytes, base64url.
    static func newState() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.string(Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    private static func path(_ components: URLComponents) -> String {
        let path = components.percentEncodedPath
        return path.isEmpty ? "/" : path
    }

    /// The decoded fields of a query (`+` is a space, as in forms); the first of a repeated name.
    static func fields(_ query: String?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(halves[0])
            if fields[name] == nil { fields[name] = halves.count > 1 ? decode(halves[1]) : "" }
        }
        return fields
    }
}

/// What the redirect back from a provider's page said (``ProviderSignInFlow/result(of:)``).
public enum ProviderCallback: Sendable, Equatable {
    /// The `auth_code` to exchange with the flow's verifier.
    case code(String)
    /// The person declined at the provider's page (`access_denied`).
    case declined
}
