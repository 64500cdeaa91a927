import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// Verifies bearer tokens: the signature and claims, then that the session and user still
/// exist and the session has not ended by time, so that logout, ending a session, bans and
/// deletion take effect at once. Used by ``BearerAuthenticator``
/// and the flows that verify a bearer only sometimes.
package struct Authenticator: Sendable {
    let tokens: TokenService
    let storage: any AuthStorage
    /// When sessions end by themselves (their rows may wait for ``StorageSweep``).
    let lifetime: SessionLifetime
    let now: @Sendable () -> Date

    /// The caller of a user's access token.
    ///
    /// - Throws: 403 `bad_jwt`, `session_not_found` or `user_banned`.
    package func caller(bearer: String) async throws -> Caller {
        let claims = try await tokens.verify(bearer, now: now())
        guard let sessionKey = claims.sessionID, let sessionID = UUID(text: sessionKey) else {
            throw APIError.badJWT("missing session_id")
        }
        guard let userID = UUID(text: claims.sub) else { throw APIError.badJWT("sub is not a user id") }
        // The session's row names its user (deleting a user deletes its sessions).
        let found = try await storage.read { try await $0.sessionWithUser(id: sessionID) }
        guard let (session, user) = found, session.userID == userID, !lifetime.hasEnded(session, at: now()) else {
            // Ended elsewhere (another instance, the sweep, an admin): its verified tokens go.
            tokens.verified.drop(session: sessionKey)
            throw APIError.sessionNotFound
        }
        if user.isBanned(at: now()) { throw APIError(.forbidden, .userBanned, "User is banned") }
        return Caller(claims: claims, session: session, user: user.withoutLapsedFactors(at: now()))
    }

    /// The claims of an admin (`service_role` or `supabase_admin`) token.
    ///
    /// - Throws: 403 `bad_jwt`, `not_admin` or `session_expired`.
    package func admin(bearer: String) async throws -> VerifiedAccess {
        let claims = try await tokens.verify(bearer, now: now(), allowProjectKey: true)
        // A project key admits only as `service_role` (its `anon` sibling is public).
        let roles = claims.isSupabaseProjectKey ? ["service_role"] : ["service_role", "supabase_admin"]
        guard roles.contains(claims.role) else { throw APIError.notAdmin }
        if let jti = claims.jti, try await storage.read({ try await $0.isTokenRevoked(jti: jti) }) {
            throw APIError.badJWT("token has been revoked")
        }
        if let sessionKey = claims.sessionID, let id = UUID(text: sessionKey) {
            guard try await storage.read({ try await $0.session(id: id) }) != nil else {
                throw APIError(.forbidden, .sessionExpired, "Session has expired")
            }
        }
        return claims
    }
}
