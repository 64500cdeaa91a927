import Foundation
import GatehouseCore

/// `POST /logout?scope=local|others|global`: ends the caller's session, its other sessions,
/// or all of them (the default).
struct Logout: Sendable {
    let storage: any AuthStorage
    let audit: AuditLog

    func callAsFunction(_ caller: Caller, scope: LogoutScope, ip: String) async throws {
        try await storage.transaction { tx in
            switch scope {
            case .local: try await tx.deleteSession(id: caller.session.id)
            case .global: try await tx.deleteSessions(userID: caller.user.id, except: nil)
            case .others: try await tx.deleteSessions(userID: caller.user.id, except: caller.session.id)
            }
            try await audit.record("logout", actor: caller.user.id, ip: ip, detail: scope.rawValue, in: tx)
        }
    }
}
