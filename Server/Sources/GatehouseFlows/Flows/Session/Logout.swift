import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// `POST /logout?scope=local|others|global`: ends the caller's session, its other sessions,
/// or all of them (the default).
///
/// Ending the other sessions (`others`, `global`) is ``SensitiveAction/endOtherSessions``: a
/// sign-in within 10 minutes or a reauthentication `nonce`, and AAL2 from a user with a verified
/// factor (``SensitiveActionPolicy``), so a stolen older or password-only token cannot throw the
/// owner off their devices. Without it, `global` still ends the caller's own session (a sign-out
/// never leaves its own session behind) and then answers why the others stay.
package struct Logout: Sendable {
    let storage: any AuthStorage
    let sensitive: SensitiveActionGuard
    let audit: AuditLog
    /// Forgets the verified tokens of the sessions that end.
    let verified: VerifiedTokenCache

    package func callAsFunction(_ caller: Caller, scope: LogoutScope, nonce: String?, ip: String) async throws {
        if scope != .local {
            do {
                _ = try await sensitive.authorize(.endOtherSessions, caller, evidence: .init(nonce: nonce), ip: ip)
            } catch {
                if scope == .global { try await end(caller, scope: .local, ip: ip) }
                throw error
            }
        }
        try await end(caller, scope: scope, ip: ip)
    }

    private func end(_ caller: Caller, scope: LogoutScope, ip: String) async throws {
        try await storage.transaction { tx in
            switch scope {
            case .local: try await tx.deleteSession(id: caller.session.id)
            case .global: try await tx.deleteSessions(userID: caller.user.id, except: nil)
            case .others: try await tx.deleteSessions(userID: caller.user.id, except: caller.session.id)
            }
            try await audit.record(.logout, actor: caller.user.id, ip: ip, detail: scope.rawValue, in: tx)
        }
        switch scope {
        case .local: verified.drop(session: caller.session.id.key)
        case .global: verified.drop(user: caller.user.id.key)
        case .others: verified.drop(user: caller.user.id.key, keeping: caller.session.id.key)
        }
    }
}
