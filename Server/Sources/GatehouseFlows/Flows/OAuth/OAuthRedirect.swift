import Foundation
package import GatehouseCore
package import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// The addresses a sign-in's redirect goes to, as GoTrue writes them: the `auth_code` in the
/// query (PKCE), the session in the fragment (implicit), and an error in both (`error`,
/// `error_code`, `error_description`, and `sb` in the fragment, which tells clients the answer is
/// Supabase Auth's).
package enum OAuthRedirect {
    /// `target?code=<code>`.
    package static func code(_ code: String, to target: String) -> String {
        adding(query: [("code", code)], fragment: nil, to: target)
    }

    /// `target#access_token=…&expires_at=…&expires_in=…&provider_token=…&refresh_token=…&sb=&token_type=bearer`,
    /// names in order, with `type` when a link of that type was followed.
    package static func tokens(_ session: WireSession, type: String? = nil, to target: String) -> String {
        var fields: [(String, String)] = [
            ("access_token", session.accessToken), ("expires_at", String(session.expiresAt)),
            ("expires_in", String(session.expiresIn)), ("refresh_token", session.refreshToken),
            ("token_type", session.tokenType), ("sb", ""),
        ]
        if let token = session.providerToken { fields.append(("provider_token", token)) }
        if let token = session.providerRefreshToken { fields.append(("provider_refresh_token", token)) }
        if let type { fields.append(("type", type)) }
        return adding(query: [], fragment: fields.sorted { $0.0 < $1.0 }, to: target)
    }

    /// `target?error=…&error_code=…&error_description=…#error=…&error_code=…&error_description=…&sb=`.
    package static func error(_ error: APIError, to target: String) -> String {
        self.error(oauth: oauthError(for: error), code: error.code.rawValue, description: error.message, to: target)
    }

    /// The same for an error the provider sent (`access_denied` when the person declined).
    static func error(oauth: String, code: String, description: String, to target: String) -> String {
        let fields = [("error", oauth), ("error_code", code), ("error_description", description)]
        return adding(query: fields, fragment: fields + [("sb", "")], to: target)
    }

    /// RFC 6749 §4.1.2.1's `error` for an answer, as GoTrue maps statuses.
    package static func oauthError(for error: APIError) -> String {
        if [.signupDisabled, .userBanned].contains(error.code) { return "access_denied" }
        switch error.status.code {
        case 401: return "unauthorized_client"
        case 403: return "access_denied"
        case 503: return "temporarily_unavailable"
        case 400..<500: return "invalid_request"
        default: return "server_error"
        }
    }

    /// `target` (without its fragment) with `query` added to its query and `fragment` as its fragment.
    package static func adding(query: [(String, String)], fragment: [(String, String)]?, to target: String) -> String {
        var base =
            target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? target
        if !query.isEmpty {
            base += (base.contains("?") ? "&" : "?") + AppleFormPoster.formEncoded(query)
        }
        if let fragment { base += "#" + AppleFormPoster.formEncoded(fragment) }
        return base
    }
}
