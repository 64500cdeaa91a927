package import Foundation
import GatehouseCore
import GatehouseServerSupport

/// A session's assurance level: raised by a verified second factor, dropped when that factor
/// goes. Kept apart from the other session statements.
extension SQLTransaction {
    /// The levels as the statements spell them (constants, not binds: the statements' text is fixed).
    private static let aal1 = AuthenticatorAssuranceLevel.aal1.rawValue
    private static let aal2 = AuthenticatorAssuranceLevel.aal2.rawValue

    package func elevateSession(
        id: UUID,
        factorID: UUID,
        amr: [AMREntry],
        at now: Date
    ) async throws -> SessionRecord? {
        // The counter moves by two and the rotation time is cleared: the session's AAL1 refresh
        // tokens count as reused from now on and are never answered with the AAL2 one.
        guard
            try await !query(
                """
                UPDATE sessions SET aal = '\(Self.aal2)', factor_id = ?, amr = ?, counter = counter + 2,
                rotated_at = NULL, refreshed_at = ?, refreshed_day = ? WHERE id = ? RETURNING id
                """,
                [
                    .text(factorID.key), .text(AMRText.text(amr)), .date(now),
                    .float(SessionRefreshDay.start(of: now)), .text(id.key),
                ]
            ).isEmpty
        else { return nil }
        return try await session(id: id)
    }

    package func downgradeSessions(factorID: UUID) async throws {
        let rows = try await query(
            "SELECT \(Self.sessionColumns) FROM sessions s WHERE s.factor_id = ?",
            [.text(factorID.key)]
        )
        for row in rows {
            let session = try session(from: row)
            let amr = session.amr.filter { $0.method != .totp }
            _ = try await query(
                "UPDATE sessions SET aal = '\(Self.aal1)', factor_id = NULL, amr = ? WHERE id = ?",
                [.text(AMRText.text(amr)), .text(session.id.key)]
            )
        }
    }

    package func deleteSessionsBelowAAL2(userID: UUID, except: UUID) async throws -> Int {
        try await query(
            "DELETE FROM sessions WHERE user_id = ? AND aal <> '\(Self.aal2)' AND id <> ? RETURNING id",
            [.text(userID.key), .text(except.key)]
        ).count
    }
}
