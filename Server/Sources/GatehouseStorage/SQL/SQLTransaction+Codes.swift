package import Foundation
import GatehouseCore
import GatehouseServerSupport

extension SQLTransaction {
    package func upsertCode(_ code: CodeRecord) async throws {
        _ = try await query(
            """
            INSERT INTO one_time_codes (user_id, purpose, code_hash, link_hash, email, expires_at, attempts, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, purpose) DO UPDATE SET code_hash = excluded.code_hash, link_hash = excluded.link_hash,
            email = excluded.email, expires_at = excluded.expires_at, attempts = 0, created_at = excluded.created_at
            """,
            [
                .text(code.userID.key), .text(code.purpose.rawValue), .text(code.codeHash), .text(code.linkHash),
                .text(code.email.lowercased()), .float(code.expiresAt.timeIntervalSince1970), .integer(code.attempts),
                .float(code.createdAt.timeIntervalSince1970),
            ]
        )
    }

    package static let codeColumns = "user_id, purpose, code_hash, link_hash, email, expires_at, attempts, created_at"

    package func code(userID: UUID, purpose: CodePurpose) async throws -> CodeRecord? {
        try await query(
            "SELECT \(Self.codeColumns) FROM one_time_codes WHERE user_id = ? AND purpose = ?",
            [.text(userID.key), .text(purpose.rawValue)]
        ).first.map(code(from:))
    }

    package func code(linkHash: String) async throws -> CodeRecord? {
        try await query("SELECT \(Self.codeColumns) FROM one_time_codes WHERE link_hash = ?", [.text(linkHash)])
            .first.map(code(from:))
    }

    package func countCodeAttempt(userID: UUID, purpose: CodePurpose, below limit: Int) async throws -> CodeRecord? {
        try await query(
            """
            UPDATE one_time_codes SET attempts = attempts + 1
            WHERE user_id = ? AND purpose = ? AND attempts < ?
            RETURNING \(Self.codeColumns)
            """,
            [.text(userID.key), .text(purpose.rawValue), .integer(limit)]
        ).first.map(code(from:))
    }

    package func deleteCode(userID: UUID, purpose: CodePurpose) async throws {
        _ = try await query(
            "DELETE FROM one_time_codes WHERE user_id = ? AND purpose = ?",
            [.text(userID.key), .text(purpose.rawValue)]
        )
    }

    /// A code row.
    ///
    /// - Throws: ``StoredValueError`` when a column is missing or unreadable, or its purpose is not
    ///   one this server knows.
    package func code(from row: SQLRow) throws -> CodeRecord {
        try CodeRecord(
            userID: row.uuid("user_id", of: "one_time_codes"),
            purpose: StoredValueError.decode(
                row.column("purpose")?.string,
                as: CodePurpose.self,
                column: "one_time_codes.purpose"
            ),
            codeHash: try row.text("code_hash", of: "one_time_codes"),
            linkHash: try row.text("link_hash", of: "one_time_codes"),
            email: try row.text("email", of: "one_time_codes"),
            expiresAt: try row.date("expires_at", of: "one_time_codes"),
            attempts: try row.integer("attempts", of: "one_time_codes"),
            createdAt: try row.date("created_at", of: "one_time_codes")
        )
    }
}
