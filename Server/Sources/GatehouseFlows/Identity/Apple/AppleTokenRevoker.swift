import Foundation

/// Revokes an Apple refresh token at Apple's `/auth/revoke` (`token_type_hint=refresh_token`).
struct AppleTokenRevoker: Sendable {
    /// What Apple said.
    enum Outcome: Sendable, Equatable {
        /// Apple took the revocation (200), or the token is no longer valid at Apple
        /// (`invalid_grant`): nothing is left to revoke.
        case revoked
        /// Try again later: Apple could not be reached or refused for a reason that may pass.
        case failed(String)
    }

    let secret: AppleClientSecret
    let poster: AppleFormPoster
    /// Apple's `/auth/revoke`.
    let revokeURL: URL

    func revoke(_ token: String, clientID: String, now: Date) async -> Outcome {
        do {
            let reply = try await poster.post(
                revokeURL,
                [
                    ("client_id", clientID), ("client_secret", try await secret.make(clientID: clientID, now: now)),
                    ("token", token), ("token_type_hint", "refresh_token"),
                ]
            )
            if reply.status == 200 { return .revoked }
            let error = (try? JSONDecoder().decode([String: String].self, from: reply.body))?["error"]
            if reply.status == 400, error == "invalid_grant" { return .revoked }
            return .failed("HTTP \(reply.status)\(error.map { " \($0)" } ?? "")")
        } catch {
            return .failed("unreachable (\(type(of: error)))")
        }
    }
}
