import Foundation
import GatehouseCore
import HTTPTypes

/// `DELETE /admin/users/{id}/sessions/{sid}`: an admin ends one session of a user at once.
struct AdminSessionEnding: Sendable {
    let storage: any AuthStorage
    let audit: AuditLog

    /// Ends `user`'s session `id`, or throws 404 `not_found` when the user has no such session.
    func callAsFunction(_ id: UUID?, of user: UserRecord, ip: String) async throws {
        guard let id else { throw SessionEnding.notFound }
        try await storage.transaction { tx in
            guard try await tx.deleteSession(id: id, userID: user.id) else { throw SessionEnding.notFound }
            try await audit.record("session_ended", actor: user.id, ip: ip, detail: "admin", in: tx)
        }
    }
}
