package import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `DELETE /admin/users/{id}/sessions/{sid}`: an admin ends one session of a user at once; the
/// console ends one or all, with the operator as the audit line's actor and the user as its
/// subject.
package struct AdminSessionEnding: Sendable {
    let storage: any AuthStorage
    let audit: AuditLog

    /// Ends `user`'s session `id`, or throws 404 `not_found` when the user has no such session.
    package func callAsFunction(_ id: UUID?, of user: UserRecord, ip: String, operator: UUID? = nil) async throws {
        guard let id else { throw SessionEnding.notFound }
        try await storage.transaction { tx in
            guard try await tx.deleteSession(id: id, userID: user.id) else { throw SessionEnding.notFound }
            try await audit.record(
                .sessionEnded,
                actor: `operator` ?? user.id,
                ip: ip,
                detail: `operator` == nil ? "admin" : "console",
                subject: `operator` == nil ? nil : user.id,
                in: tx
            )
        }
    }

    /// Ends every session of `user` at once. - Returns: how many ended.
    @discardableResult
    package func all(of user: UserRecord, ip: String, operator: UUID) async throws -> Int {
        try await storage.transaction { tx in
            let ended = try await tx.deleteSessions(userID: user.id, except: nil)
            try await audit.record(
                .sessionsEnded,
                actor: `operator`,
                ip: ip,
                detail: "console: \(ended)",
                subject: user.id,
                in: tx
            )
            return ended
        }
    }
}
