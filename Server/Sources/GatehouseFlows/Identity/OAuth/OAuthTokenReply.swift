import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Logging

/// A provider's answer at its token endpoint (RFC 6749 §5.1, §5.2), and what it means for the
/// sign-in: the tokens, a refused code (the person signs in again), or a fault of the provider
/// or of the server's configuration (tried again later).
struct OAuthTokenReply: Decodable, Sendable {
    var accessToken: String?
    var refreshToken: String?
    var idToken: String?
    var error: String?
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case errorDescription = "error_description"
    }

    /// The tokens of `reply`, or the error it stands for. GitHub answers refusals with 200 and an
    /// `error` field, so the field decides, not only the status.
    static func decode(_ reply: ProviderHTTP.Reply, provider: String, logger: Logger) throws -> OAuthTokenReply {
        let answer = try? JSONDecoder().decode(OAuthTokenReply.self, from: reply.body)
        if let answer, answer.error == nil, reply.status == 200, let token = answer.accessToken, !token.isEmpty {
            return answer
        }
        let error = answer?.error ?? "status \(reply.status)"
        if ["invalid_client", "unauthorized_client", "incorrect_client_credentials"].contains(error)
            || reply.status >= 500 || answer == nil
        {
            // The server's own configuration (client id or secret), or the provider is down.
            logger.error(
                "A provider's token endpoint refused the exchange",
                metadata: ["provider": "\(provider)", "oauth.error": "\(error)"]
            )
            throw ProviderFailure.unavailable(provider)
        }
        throw APIError(
            .badRequest,
            .badOAuthCallback,
            "\(provider) refused the authorization code (used already, expired, or issued to another sign-in): "
                + "sign in again."
        )
    }
}

/// The provider could not be used right now.
enum ProviderFailure {
    /// 503 `provider_unavailable`: the provider could not be reached, or answered with a fault.
    static func unavailable(_ provider: String) -> APIError {
        APIError(
            .serviceUnavailable,
            .providerUnavailable,
            "\(provider) could not be reached or refused this server right now. Try again in a minute.",
            retryAfter: 60
        )
    }

    /// 400 `bad_oauth_callback`: the provider's answer about the user cannot be used.
    static func unusableAnswer(_ provider: String, _ problem: String) -> APIError {
        APIError(.badRequest, .badOAuthCallback, "\(provider)'s answer \(problem).")
    }
}
