public import Foundation
public import Gatehouse
import GatehouseCore

extension GoTrueBackend {
    /// `GET /authorize?provider=…&redirect_to=…&scopes=…&code_challenge=…&code_challenge_method=s256`
    /// on this server (every value percent-encoded, so the redirect URL's own query stays inside
    /// `redirect_to`).
    public func providerSignInURL(for flow: ProviderSignInFlow) async throws -> URL {
        var fields = [("provider", flow.provider), ("redirect_to", flow.redirectURL.absoluteString)]
        if !flow.scopes.isEmpty { fields.append(("scopes", flow.scopes.joined(separator: " "))) }
        fields += [("code_challenge", flow.pkce.challenge), ("code_challenge_method", PKCEVerifier.method)]
        guard var components = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false) else {
            throw AuthError.validationFailed("The server URL \(configuration.url) is not valid.")
        }
        components.path += components.path.hasSuffix("/") ? "authorize" : "/authorize"
        components.percentEncodedQuery = fields.map { "\($0.0)=\(Self.queryEncoded($0.1))" }.joined(separator: "&")
        guard let url = components.url else {
            throw AuthError.validationFailed("The server URL \(configuration.url) is not valid.")
        }
        return url
    }

    /// `POST /token?grant_type=pkce {"auth_code", "code_verifier"}`.
    public func exchangeAuthCode(_ code: String, verifier: String) async throws -> Session {
        let wire: WireSession = try await client.send(
            .post,
            "token",
            query: ["grant_type": "pkce"],
            body: PKCEGrantRequest(authCode: code, codeVerifier: verifier)
        )
        return Session(wire: wire, receivedAt: configuration.now())
    }

    /// `value` with everything but RFC 3986's unreserved characters percent-encoded.
    static func queryEncoded(_ value: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }
}
