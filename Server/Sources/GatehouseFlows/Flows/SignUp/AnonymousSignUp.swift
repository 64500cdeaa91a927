import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /signup` with no credentials: a guest with a session at once (a user with no e-mail,
/// upgraded later by ``GuestUpgrade`` or an ID token).
package struct AnonymousSignUp: Sendable {
    let storage: any AuthStorage
    let rateLimits: RateLimits
    let sessions: SessionIssuer
    let audit: AuditLog
    let settings: SignUpSettings
    let now: @Sendable () -> Date

    /// Creates a guest and its session, counted as an anonymous sign-up.
    package func callAsFunction(_ body: SignUpRequest, ip: String) async throws -> WireSession {
        let session = try await signUp(body, ip: ip)
        AuthMetrics.signUp(.anonymous)
        return session
    }

    private func signUp(_ body: SignUpRequest, ip: String) async throws -> WireSession {
        let now = now()
        try settings.checkEnabled()
        try settings.metadataLimit.check(body.data)
        guard settings.anonymousUsers else {
            throw APIError(.unprocessableContent, .anonymousProviderDisabled, "Anonymous sign-ins are disabled")
        }
        try await rateLimits.hit(.anonymous, key: ip, now: now)
        let grant = try await storage.transaction { tx in
            let user = UserRecord(
                lastSignInAt: now,
                userMetadata: body.data ?? [:],
                isAnonymous: true,
                createdAt: now,
                updatedAt: now
            )
            try await tx.insertUser(user)
            try await audit.record(.anonymousSignIn, actor: user.id, ip: ip, in: tx)
            return try await sessions.open(for: user, method: .anonymous, device: body.device, ip: ip, in: tx, at: now)
        }
        return try await sessions.answer(grant, now: now)
    }
}
