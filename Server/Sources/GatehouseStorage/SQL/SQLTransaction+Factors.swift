package import Foundation
import GatehouseCore
import GatehouseServerSupport

/// Second factors and their challenges.
extension SQLTransaction {
    package static let factorColumns = """
        id, user_id, friendly_name, factor_type, status, secret, last_used_step, created_at, updated_at,
        last_challenged_at, enrolled_session_id
        """

    package func insertFactor(_ factor: FactorRecord) async throws {
        do {
            _ = try await query(
                "INSERT INTO mfa_factors (\(Self.factorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                Self.factorBinds(factor)
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateFactorName
        }
    }

    /// The values of ``factorColumns`` for `factor`.
    package static func factorBinds(_ factor: FactorRecord) -> [SQLValue] {
        [
            .text(factor.id.key), .text(factor.userID.key), .text(factor.friendlyName),
            .text(factor.factorType), .text(factor.isVerified ? "verified" : "unverified"),
            .text(factor.sealedSecret ?? ""), factor.lastUsedStep.map { .integer(Int($0)) } ?? .null,
            .float(factor.createdAt.timeIntervalSince1970), .float(factor.updatedAt.timeIntervalSince1970),
            .date(factor.lastChallengedAt), factor.enrolledSessionID.map { .text($0.key) } ?? .null,
        ]
    }

    package func lockFactors(userID: UUID) async throws {
        // A no-op update takes the user row's lock (SQLite's transactions are exclusive anyway).
        _ = try await query("UPDATE users SET updated_at = updated_at WHERE id = ?", [.text(userID.key)])
    }

    package func factor(id: UUID, userID: UUID) async throws -> FactorRecord? {
        try await query(
            "SELECT \(Self.factorColumns) FROM mfa_factors WHERE id = ? AND user_id = ?",
            [.text(id.key), .text(userID.key)]
        ).first.map(Self.factor(from:))
    }

    package func deleteFactor(id: UUID, userID: UUID) async throws -> Bool {
        !(try await query(
            "DELETE FROM mfa_factors WHERE id = ? AND user_id = ? RETURNING id",
            [.text(id.key), .text(userID.key)]
        ).isEmpty)
    }

    package func deleteUnverifiedFactors(userID: UUID, createdBefore cutoff: Date) async throws {
        _ = try await query(
            "DELETE FROM mfa_factors WHERE user_id = ? AND status = 'unverified' AND created_at < ?",
            [.text(userID.key), .date(cutoff)]
        )
    }

    package func markFactorVerified(id: UUID, at now: Date) async throws {
        _ = try await query(
            "UPDATE mfa_factors SET status = 'verified', updated_at = ? WHERE id = ?",
            [.date(now), .text(id.key)]
        )
    }

    package func recordFactorStep(id: UUID, step: Int64) async throws -> Bool {
        !(try await query(
            """
            UPDATE mfa_factors SET last_used_step = ?
            WHERE id = ? AND (last_used_step IS NULL OR last_used_step < ?) RETURNING id
            """,
            [.integer(Int(step)), .text(id.key), .integer(Int(step))]
        ).isEmpty)
    }

    package static let challengeColumns = "id, factor_id, user_id, ip, created_at, expires_at, attempts"

    package func insertChallenge(_ challenge: FactorChallengeRecord) async throws {
        _ = try await query(
            "INSERT INTO mfa_challenges (\(Self.challengeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .text(challenge.id.key), .text(challenge.factorID.key), .text(challenge.userID.key),
                .text(challenge.ip), .date(challenge.createdAt), .date(challenge.expiresAt),
                .integer(challenge.attempts),
            ]
        )
        _ = try await query(
            "UPDATE mfa_factors SET last_challenged_at = ? WHERE id = ?",
            [.date(challenge.createdAt), .text(challenge.factorID.key)]
        )
        // Dead challenges of the user go with each new one.
        _ = try await query(
            "DELETE FROM mfa_challenges WHERE user_id = ? AND expires_at < ?",
            [.text(challenge.userID.key), .date(challenge.createdAt)]
        )
    }

    package func challenge(id: UUID, factorID: UUID) async throws -> FactorChallengeRecord? {
        try await query(
            "SELECT \(Self.challengeColumns) FROM mfa_challenges WHERE id = ? AND factor_id = ?",
            [.text(id.key), .text(factorID.key)]
        ).first.map(Self.challenge(from:))
    }

    package func countChallengeAttempt(id: UUID, below limit: Int) async throws -> FactorChallengeRecord? {
        try await query(
            """
            UPDATE mfa_challenges SET attempts = attempts + 1 WHERE id = ? AND attempts < ?
            RETURNING \(Self.challengeColumns)
            """,
            [.text(id.key), .integer(limit)]
        ).first.map(Self.challenge(from:))
    }

    package func deleteChallenge(id: UUID) async throws -> Bool {
        !(try await query("DELETE FROM mfa_challenges WHERE id = ? RETURNING id", [.text(id.key)]).isEmpty)
    }

    package static func factor(from row: SQLRow) throws -> FactorRecord {
        FactorRecord(
            id: try row.uuid("id", of: "mfa_factors"),
            userID: try row.uuid("user_id", of: "mfa_factors"),
            friendlyName: try row.text("friendly_name", of: "mfa_factors"),
            factorType: try row.text("factor_type", of: "mfa_factors"),
            isVerified: row.column("status")?.string == "verified",
            sealedSecret: row.column("secret")?.string,
            lastUsedStep: row.column("last_used_step")?.integer.map(Int64.init),
            createdAt: try row.date("created_at", of: "mfa_factors"),
            updatedAt: try row.date("updated_at", of: "mfa_factors"),
            lastChallengedAt: row.date("last_challenged_at"),
            enrolledSessionID: row.column("enrolled_session_id")?.string.flatMap(UUID.init(text:))
        )
    }

    package static func challenge(from row: SQLRow) throws -> FactorChallengeRecord {
        FactorChallengeRecord(
            id: try row.uuid("id", of: "mfa_challenges"),
            factorID: try row.uuid("factor_id", of: "mfa_challenges"),
            userID: try row.uuid("user_id", of: "mfa_challenges"),
            ip: try row.text("ip", of: "mfa_challenges"),
            createdAt: try row.date("created_at", of: "mfa_challenges"),
            expiresAt: try row.date("expires_at", of: "mfa_challenges"),
            attempts: try row.integer("attempts", of: "mfa_challenges")
        )
    }

    /// Factors from the `factors_json` column of a user read (no secrets).
    package static func factors(fromJSON text: String?) throws -> [FactorRecord] {
        try JSONText.rows(text, column: "users.factors_json").map { row in
            var factor = try factor(from: row)
            factor.sealedSecret = nil
            return factor
        }
    }
}
