import Foundation

/// `DELETE /admin/users/{id}`: removes the user and, by cascade, its identities, sessions and codes.
struct AdminUserDeletion: Sendable {
    let storage: any AuthStorage
    let audit: AuditLog

    func callAsFunction(_ user: UserRecord, ip: String) async throws {
        try await storage.transaction { tx in
            try await tx.deleteUser(id: user.id)
            try await audit.record("admin_user_deleted", actor: user.id, ip: ip, in: tx)
        }
    }
}
