import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import JWTKit
import Logging

/// Exchanges the `authorization_code` an app sends beside an Apple ID token at Apple's
/// `/auth/token` for Apple's refresh token, the one thing that lets the server revoke the
/// user's Apple authorization when the account is deleted (App Store Review Guideline
/// 5.1.1(v), TN3194).
///
/// Apple's answer holds an ID token of its own: it must verify with Apple's keys, come from
/// Apple, be for the app the code was sent with, and name the same Apple account (`sub`) as the
/// ID token the client signed in with. Otherwise someone pairs their own token with another
/// person's code (or the reverse), and the sign-in is refused (400 `authorization_code_invalid`).
///
/// When Apple cannot be reached or answers with a failure of its own, the sign-in is refused
/// with 503 `provider_unavailable` (retry later), not completed without the token: the app sent
/// a code because it needs the account to be revocable, and an account signed in without it
/// could never have its Apple authorization revoked on deletion. Codes are single use and short
/// lived, so the retry is a new Sign in with Apple, which gives a new code.
struct AppleTokenExchange: Sendable {
    let secret: AppleClientSecret
    let poster: AppleFormPoster
    /// Apple's `/auth/token`.
    let tokenURL: URL
    /// Apple's key set, shared with the ID-token verifier.
    let keys: ProviderKeySet
    let leeway: TimeInterval
    let logger: Logger

    /// The longest code accepted (Apple's are under a hundred characters).
    static let maximumCodeLength = 1024

    /// Apple's refresh token for `code`, after checking that it belongs to `subject` at `clientID`.
    func refreshToken(code: String, clientID: String, subject: String, now: Date) async throws -> String {
        guard !code.isEmpty, code.utf8.count <= Self.maximumCodeLength,
            code.unicodeScalars.allSatisfy({ $0.isASCII && !$0.properties.isWhitespace && $0.value >= 0x21 })
        else {
            throw invalid("The authorization code is malformed: send the code from Apple's credential as it is.")
        }
        let reply: AppleFormPoster.Reply
        do {
            reply = try await poster.post(
                tokenURL,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
                    ("client_secret", try await secret.make(clientID: clientID, now: now)),
                ]
            )
        } catch {
            logger.warning("Apple's token endpoint could not be reached", metadata: ["error": "\(type(of: error))"])
            throw Self.unavailable
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: reply.body)
        guard reply.status == 200 else {
            if reply.status == 400, answer?.error == "invalid_grant" {
                throw invalid(
                    "Apple refused the authorization code (used already, expired, or issued to another app): "
                        + "sign in with Apple again."
                )
            }
            // invalid_client is our configuration (team id, key id, key or client id), never the caller's.
            logger.error(
                "Apple's token endpoint refused the exchange",
                metadata: ["apple.status": "\(reply.status)", "apple.error": "\(answer?.error ?? "-")"]
            )
            throw Self.unavailable
        }
        guard let answer, let idToken = answer.idToken, let refreshToken = answer.refreshToken,
            !refreshToken.isEmpty
        else {
            logger.error("Apple's token endpoint answered without an ID token or refresh token")
            throw Self.unavailable
        }
        try await check(idToken, clientID: clientID, subject: subject, now: now)
        return refreshToken
    }

    /// The ID token of Apple's answer names `subject` at `clientID`.
    private func check(_ token: String, clientID: String, subject: String, now: Date) async throws {
        let header = try? IDTokenVerifier.header(of: token)
        guard let kid = header?["kid"] as? String, let alg = header?["alg"] as? String else {
            throw invalid("Apple's answer to the authorization code holds no usable ID token.")
        }
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, kid: kid, alg: alg, now: now)
        } catch ProviderKeySet.Failure.unavailable {
            throw Self.unavailable
        } catch {
            throw invalid("The ID token Apple returned for the authorization code does not verify.")
        }
        let seconds = now.timeIntervalSince1970
        guard claims.issuer.map({ IdentityProvider.apple.issuers.contains($0) }) == true,
            claims.audience?.value.contains(clientID) == true,
            let expires = claims.expires, seconds <= expires + leeway
        else {
            throw invalid("The ID token Apple returned for the authorization code is not for this app.")
        }
        guard claims.subject == subject else {
            throw invalid("The authorization code belongs to another Apple account than the ID token.")
        }
    }

    private func invalid(_ message: String) -> APIError {
        APIError(.badRequest, .authorizationCodeInvalid, message)
    }

    static let unavailable = APIError(
        .serviceUnavailable,
        .providerUnavailable,
        "Apple could not exchange the authorization code right now. Sign in with Apple again in a minute.",
        retryAfter: 60
    )

    /// The fields of Apple's answer the server reads.
    private struct Answer: Decodable {
        var error: String?
        var idToken: String?
        var refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case error
            case idToken = "id_token"
            case refreshToken = "refresh_token"
        }
    }
}
