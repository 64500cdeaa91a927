package import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// `GET /user/sessions` and `GET /admin/users/{id}/sessions`: a user's sessions that have not
/// ended, newest first, at most ``limit``. A user with a verified factor lists them only from an
/// AAL2 session (``SensitiveAction/listSessions``): the list names devices and addresses.
package struct SessionListing: Sendable {
    let storage: any AuthStorage
    let lifetime: SessionLifetime
    let sensitive: SensitiveActionGuard
    let now: @Sendable () -> Date

    /// The most sessions one answer lists (a script signing in in a loop makes many).
    static let limit = 100

    /// The caller's own sessions; its own is marked.
    package func callAsFunction(_ caller: Caller, ip: String) async throws -> WireDeviceSessionList {
        _ = try await sensitive.authorize(.listSessions, caller, ip: ip)
        return try await callAsFunction(of: caller.user.id, current: caller.session.id)
    }

    /// The sessions of `userID`; the one with id `current` is marked as the caller's own.
    package func callAsFunction(of userID: UUID, current: UUID?) async throws -> WireDeviceSessionList {
        let now = now()
        let sessions = try await storage.read { reader in
            try await reader.sessions(
                userID: userID,
                createdAfter: lifetime.createdCutoff(at: now),
                refreshedAfter: lifetime.refreshedCutoff(at: now),
                limit: Self.limit
            )
        }
        return WireDeviceSessionList(sessions: sessions.map { $0.deviceWire(current: $0.id == current) })
    }
}
