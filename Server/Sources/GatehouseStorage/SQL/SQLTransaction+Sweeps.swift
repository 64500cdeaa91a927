package import Foundation

/// The statements of the background sweep (``StorageSweep``): each deletes one bounded batch of
/// rows that have served their purpose, found through an index on their time column.
///
/// On PostgreSQL the batch is chosen `FOR UPDATE SKIP LOCKED`, so instances sweeping at once
/// take different rows instead of queueing behind each other (or behind a request holding one).
extension SQLTransaction {
    package func deleteEndedSessions(createdBefore: Date, refreshedBefore: Date, limit: Int) async throws -> Int {
        let rows = try await query(
            """
            DELETE FROM sessions WHERE id IN (
                SELECT id FROM sessions WHERE created_at < ? OR refreshed_day < ? LIMIT ?\(skipLocked)
            ) RETURNING id
            """,
            [
                .float(createdBefore.timeIntervalSince1970),
                // Rows of a day that starts before the cutoff's day were all refreshed before
                // the cutoff; the cutoff's own day waits for the next day's sweep.
                .float(SessionRefreshDay.start(of: refreshedBefore)), .integer(limit),
            ]
        )
        return rows.count
    }

    package func deleteExpired(_ rows: SweptRows, before cutoff: Date, limit: Int) async throws -> Int {
        try await query(Self.sweepStatement(rows, dialect: executor.dialect), [.date(cutoff), .integer(limit)]).count
    }

    private var skipLocked: String { executor.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : "" }

    /// The batch delete of `rows` in `dialect`'s SQL: binds the cutoff, then the batch size.
    package static func sweepStatement(_ rows: SweptRows, dialect: SQLDialect) -> String {
        let (table, key, condition): (String, String, String) =
            switch rows {
            case .endedSessions:
                preconditionFailure("ended sessions have two cutoffs: deleteEndedSessions")
            case .expiredCodes:
                (
                    "one_time_codes", "user_id, purpose",
                    // A lookup of the code's user per row (not a join the planner might turn
                    // into a scan of both tables).
                    """
                    expires_at < ? AND link_hash <> COALESCE(
                        (SELECT password_code FROM users WHERE users.id = one_time_codes.user_id), '')
                    """
                )
            case .usedNonces: ("used_nonces", "provider, nonce_hash", "expires_at < ?")
            case .expiredFactorChallenges: ("mfa_challenges", "id", "expires_at < ?")
            case .expiredPasskeyChallenges: ("webauthn_challenges", "id", "expires_at < ?")
            case .expiredFlowStates: ("flow_states", "id", "expires_at < ?")
            case .closedRateLimitWindows: ("rate_limits", "id", "window_end < ?")
            case .oldAuditEntries: ("audit_log", "id", "at < ?")
            }
        let lock = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return """
            DELETE FROM \(table) WHERE (\(key)) IN (
                SELECT \(key) FROM \(table) WHERE \(condition) LIMIT ?\(lock)
            ) RETURNING 1 AS deleted
            """
    }
}
