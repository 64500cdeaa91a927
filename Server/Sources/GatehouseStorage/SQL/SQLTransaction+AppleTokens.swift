package import Foundation
import GatehouseServerSupport

extension SQLTransaction {
    package func storeAppleToken(identityID: UUID, clientID: String, sealedToken: String, at now: Date) async throws {
        _ = try await query(
            """
            INSERT INTO apple_tokens (identity_id, client_id, refresh_token, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (identity_id) DO UPDATE SET client_id = excluded.client_id,
                refresh_token = excluded.refresh_token, updated_at = excluded.updated_at
            """,
            [
                .text(identityID.key), .text(clientID), .text(sealedToken), .float(now.timeIntervalSince1970),
                .float(now.timeIntervalSince1970),
            ]
        )
    }

    package func appleToken(identityID: UUID) async throws -> (clientID: String, sealedToken: String)? {
        guard
            let row = try await query(
                "SELECT client_id, refresh_token FROM apple_tokens WHERE identity_id = ?",
                [.text(identityID.key)]
            ).first,
            let clientID = row.column("client_id")?.string,
            let sealed = row.column("refresh_token")?.string
        else { return nil }
        return (clientID, sealed)
    }

    package func deleteAppleToken(identityID: UUID) async throws -> Bool {
        !(try await query(
            "DELETE FROM apple_tokens WHERE identity_id = ? RETURNING identity_id",
            [.text(identityID.key)]
        )).isEmpty
    }

    package func queueAppleRevocations(userID: UUID, identityID: UUID?, reason: String, at now: Date) async throws -> Int {
        var binds: [SQLValue] = [.text(reason), .float(now.timeIntervalSince1970), .float(now.timeIntervalSince1970)]
        binds.append(.text(userID.key))
        var filter = ""
        if let identityID {
            filter = " AND i.id = ?"
            binds.append(.text(identityID.key))
        }
        let rows = try await query(
            """
            INSERT INTO apple_revocations (identity_id, user_id, client_id, refresh_token, reason, attempts,
                next_attempt_at, created_at)
            SELECT t.identity_id, i.user_id, t.client_id, t.refresh_token, ?, 0, ?, ?
            FROM apple_tokens t JOIN identities i ON i.id = t.identity_id WHERE i.user_id = ?\(filter)
            ON CONFLICT (identity_id) DO NOTHING RETURNING identity_id
            """,
            binds
        )
        return rows.count
    }

    package func claimAppleRevocations(dueBy now: Date, leaseUntil: Date, limit: Int) async throws -> [AppleRevocationRecord] {
        // PostgreSQL: instances delivering at once take different rows instead of queueing.
        let lock =
            switch executor.dialect {
            case .sqlite: ""
            case .postgres: " FOR UPDATE SKIP LOCKED"
            }
        return try await query(
            """
            UPDATE apple_revocations SET attempts = attempts + 1, next_attempt_at = ?
            WHERE identity_id IN (
                SELECT identity_id FROM apple_revocations WHERE next_attempt_at <= ?
                ORDER BY next_attempt_at LIMIT ?\(lock)
            )
            RETURNING identity_id, user_id, client_id, refresh_token, reason, attempts, created_at
            """,
            [.float(leaseUntil.timeIntervalSince1970), .float(now.timeIntervalSince1970), .integer(limit)]
        ).map { row in
            AppleRevocationRecord(
                identityID: try row.uuid("identity_id", of: "apple_revocations"),
                userID: try row.uuid("user_id", of: "apple_revocations"),
                clientID: try row.text("client_id", of: "apple_revocations"),
                sealedToken: try row.text("refresh_token", of: "apple_revocations"),
                reason: try row.text("reason", of: "apple_revocations"),
                attempts: try row.integer("attempts", of: "apple_revocations"),
                createdAt: try row.date("created_at", of: "apple_revocations")
            )
        }
    }

    package func deleteAppleRevocation(identityID: UUID) async throws {
        _ = try await query("DELETE FROM apple_revocations WHERE identity_id = ?", [.text(identityID.key)])
    }

    package func rescheduleAppleRevocation(identityID: UUID, at next: Date, error: String) async throws {
        _ = try await query(
            "UPDATE apple_revocations SET next_attempt_at = ?, last_error = ? WHERE identity_id = ?",
            [.float(next.timeIntervalSince1970), .text(error), .text(identityID.key)]
        )
    }
}
