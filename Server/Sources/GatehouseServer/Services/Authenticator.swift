import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// Who is calling: the verified claims, their live session and user.
struct Caller: Sendable {
    var claims: VerifiedAccess
    var session: SessionRecord
    var user: UserRecord
}

extension AuthContext {
    /// The bearer token of a request, or 401 `no_authorization`.
    func bearer(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization] else { throw APIError.noAuthorization }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw APIError.noAuthorization
        }
        return String(parts[1])
    }

    /// Verifies the bearer token and checks that its session and user still exist, so logout,
    /// bans and deletion take effect at once.
    func caller(_ request: Request) async throws -> Caller {
        let claims = try await tokens.verify(try bearer(request), now: now())
        guard let sessionKey = claims.sessionID, let sessionID = UUID(uuidString: sessionKey) else {
            throw APIError.badJWT("missing session_id")
        }
        guard let userID = UUID(uuidString: claims.sub) else { throw APIError.badJWT("sub is not a user id") }
        // The session's row names its user (deleting a user deletes its sessions).
        let found = try await storage.read { try await $0.sessionWithUser(id: sessionID) }
        guard let (session, user) = found, session.userID == userID else { throw APIError.sessionNotFound }
        if user.isBanned(at: now()) { throw APIError(.forbidden, .userBanned, "User is banned") }
        return Caller(claims: claims, session: session, user: user)
    }

    /// Verifies an admin (`service_role` or `supabase_admin`) bearer token.
    func requireAdmin(_ request: Request) async throws -> VerifiedAccess {
        let claims = try await tokens.verify(try bearer(request), now: now())
        guard ["service_role", "supabase_admin"].contains(claims.role) else { throw APIError.notAdmin }
        if let sessionKey = claims.sessionID, let id = UUID(uuidString: sessionKey) {
            guard try await storage.read({ try await $0.session(id: id) }) != nil else {
                throw APIError(.forbidden, .sessionExpired, "Session has expired")
            }
        }
        return claims
    }
}
