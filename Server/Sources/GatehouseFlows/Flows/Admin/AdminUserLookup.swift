package import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `GET /admin/users` (a page by creation time, with the total) and `GET /admin/users/{id}`.
package struct AdminUserLookup: Sendable {
    let storage: any AuthStorage

    /// A page of users and the total count.
    package func page(_ paging: AdminPaging) async throws -> (users: [UserRecord], total: Int) {
        try await storage.transaction { tx in
            try await tx.listUsers(offset: paging.offset, limit: paging.perPage)
        }
    }

    /// The user with `id`, or 404 `user_not_found`.
    package func user(_ id: UUID?) async throws -> UserRecord {
        guard let id, let user = try await storage.read({ try await $0.user(id: id) }) else {
            throw APIError(.notFound, .userNotFound, "User not found")
        }
        return user
    }
}
