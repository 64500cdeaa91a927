import Foundation
import GatehouseCore

/// Reads claims from an access token's payload, as GoTrue's clients do for `aal` (unverified:
/// the server verifies the token on every call; the app only needs to know what it says).
enum AccessTokenClaims {
    /// The token's `aal` claim; `aal1` when it has none or is not a JWT.
    static func assuranceLevel(of token: String) -> AssuranceLevel.Level {
        claims(of: token)?.aal.flatMap(AssuranceLevel.Level.init(rawValue:)) ?? .aal1
    }

    /// Whether the token's `amr` says Sign in with Apple opened the session: an `oauth` (or
    /// `id_token`) entry whose provider is `apple`.
    static func openedBySignInWithApple(_ token: String) -> Bool {
        claims(of: token)?.amr?.contains { entry in
            (entry.method == "oauth" || entry.method == "id_token") && entry.provider == "apple"
        } ?? false
    }

    /// The `sub` of a JWT (an Apple or Google ID token), unverified; `nil` when it is not a JWT.
    static func subject(of token: String) -> String? {
        claims(of: token)?.sub
    }

    private static func claims(of token: String) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let data = Base64URL.data(String(parts[1])) else { return nil }
        return try? JSONDecoder().decode(Claims.self, from: data)
    }

    private struct Claims: Decodable {
        var aal: String?
        var sub: String?
        var amr: [Method]?

        private enum CodingKeys: String, CodingKey { case aal, sub, amr }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            aal = try? c.decodeIfPresent(String.self, forKey: .aal)
            sub = try? c.decodeIfPresent(String.self, forKey: .sub)
            // OpenID Connect's `amr` is a list of strings; GoTrue's is a list of objects.
            amr = try? c.decodeIfPresent([Method].self, forKey: .amr)
        }
    }

    private struct Method: Decodable {
        var method: String?
        var provider: String?
    }
}
