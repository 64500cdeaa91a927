package import Foundation
import GatehouseServerSupport

/// The statements behind device sessions: a user's live sessions and ending one of them.
extension SQLTransaction {
    package func sessions(userID: UUID, createdAfter: Date, refreshedAfter: Date, limit: Int) async throws -> [SessionRecord] {
        try await query(
            """
            SELECT \(Self.sessionColumns) FROM sessions s
            WHERE s.user_id = ? AND s.created_at >= ? AND s.refreshed_at >= ?
            ORDER BY s.created_at DESC, s.id DESC LIMIT ?
            """,
            [
                .text(userID.key), .float(createdAfter.timeIntervalSince1970),
                .float(refreshedAfter.timeIntervalSince1970), .integer(limit),
            ]
        ).map { try session(from: $0) }
    }

    package func deleteSession(id: UUID, userID: UUID) async throws -> Bool {
        !(try await query(
            "DELETE FROM sessions WHERE id = ? AND user_id = ? RETURNING id",
            [.text(id.key), .text(userID.key)]
        )).isEmpty
    }
}
