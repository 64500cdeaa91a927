package import Foundation
import GatehouseCore
import GatehouseServerSupport

extension SQLTransaction {
    package func insertSession(_ session: SessionRecord) async throws {
        _ = try await query(
            """
            INSERT INTO sessions (id, user_id, salt, counter, created_at, refreshed_at, rotated_at, amr,
                device, created_ip, refreshed_ip, refreshed_day)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.id.key), .text(session.userID.key), .text(session.salt), .integer(Int(session.counter)),
                .float(session.createdAt.timeIntervalSince1970), .float(session.refreshedAt.timeIntervalSince1970),
                .date(session.rotatedAt), .text(AMRText.text(session.amr)),
                session.device.map(SQLValue.text) ?? .null,
                session.createdIP.map(SQLValue.text) ?? .null, session.refreshedIP.map(SQLValue.text) ?? .null,
                .float(SessionRefreshDay.start(of: session.refreshedAt)),
            ]
        )
    }

    package func session(id: UUID) async throws -> SessionRecord? {
        try await query(
            "SELECT \(Self.sessionColumns) FROM sessions s WHERE s.id = ?",
            [.text(id.key)]
        ).first.map { try session(from: $0) }
    }

    package func sessionWithUser(id: UUID) async throws -> (SessionRecord, UserRecord)? {
        let sql =
            switch executor.dialect {
            case .sqlite: Self.sqliteSessionWithUser
            case .postgres: Self.postgresSessionWithUser
            }
        guard let row = try await query(sql, [.text(id.key)]).first else { return nil }
        return (try session(from: row), try user(from: row))
    }

    package static let sqliteSessionWithUser = sessionWithUserSelect(.sqlite)
    package static let postgresSessionWithUser = sessionWithUserSelect(.postgres)

    package static func sessionWithUserSelect(_ dialect: SQLDialect) -> String {
        let qualified = userColumns.split(separator: ",").map {
            "users." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return """
            SELECT \(qualified.joined(separator: ", ")), \(dialect.identitiesJSON) AS identities_json,
            \(dialect.factorsJSON) AS factors_json,
            \(sessionColumns) FROM sessions s JOIN users ON users.id = s.user_id WHERE s.id = ?
            """
    }

    /// Session columns, prefixed `s_` so that they can share a row with a user's.
    package static let sessionColumns = """
        s.id AS s_id, s.user_id AS s_user_id, s.salt AS s_salt, s.counter AS s_counter, s.created_at AS s_created_at,
        s.refreshed_at AS s_refreshed_at, s.rotated_at AS s_rotated_at, s.amr AS s_amr, s.device AS s_device,
        s.created_ip AS s_created_ip, s.refreshed_ip AS s_refreshed_ip, s.aal AS s_aal, s.factor_id AS s_factor_id
        """

    /// The session of `row` (``sessionColumns``).
    ///
    /// - Throws: ``StoredValueError`` when its `aal` or a method of its `amr` is not one this
    ///   server knows, or its `amr` is not a list of methods.
    package func session(from row: SQLRow) throws -> SessionRecord {
        var session = SessionRecord(
            id: try row.uuid("s_id", of: "sessions"),
            userID: try row.uuid("s_user_id", of: "sessions"),
            salt: try row.text("s_salt", of: "sessions"),
            counter: Int64(try row.integer("s_counter", of: "sessions")),
            createdAt: try row.date("s_created_at", of: "sessions"),
            refreshedAt: try row.date("s_refreshed_at", of: "sessions"),
            rotatedAt: row.date("s_rotated_at"),
            amr: try AMRText.entries(row.column("s_amr")?.string),
            device: row.column("s_device")?.string,
            createdIP: row.column("s_created_ip")?.string,
            refreshedIP: row.column("s_refreshed_ip")?.string
        )
        session.aal = try AuthenticatorAssuranceLevel(stored: row.column("s_aal")?.string, column: "sessions.aal")
        session.factorID = row.column("s_factor_id")?.string.flatMap(UUID.init(uuidString:))
        return session
    }

    package func rotateSession(
        id: UUID,
        expectedCounter: Int64,
        at now: Date,
        from ip: String?,
        audit: AuditEntry
    ) async throws -> Bool {
        let rotation: [SQLValue] = [
            .float(now.timeIntervalSince1970), .float(now.timeIntervalSince1970), ip.map(SQLValue.text) ?? .null,
            .float(SessionRefreshDay.start(of: now)), .text(id.key), .integer(Int(expectedCounter)),
        ]
        switch executor.dialect {
        case .postgres:
            // The audit line is inserted only from the row the update returns: one statement.
            return !(try await query(Self.postgresRotation, rotation + Self.auditBinds(audit)).isEmpty)
        case .sqlite:
            guard !(try await query(Self.sqliteRotation, rotation).isEmpty) else { return false }
            try await appendAudit(audit)
            return true
        }
    }

    private static let rotation = """
        UPDATE sessions SET counter = counter + 1, rotated_at = ?, refreshed_at = ?, refreshed_ip = ?,
            refreshed_day = ?
        WHERE id = ? AND counter = ?
        """

    /// The rotation on SQLite; the audit line follows it in the same transaction.
    package static let sqliteRotation = "\(rotation) RETURNING counter"

    package static let postgresRotation = """
        WITH rotated AS (\(rotation) RETURNING counter),
        logged AS (\(auditInsert) SELECT ?, ?, ?, ?, ?, ? FROM rotated)
        SELECT counter FROM rotated
        """

    package func deleteSession(id: UUID) async throws {
        _ = try await query("DELETE FROM sessions WHERE id = ?", [.text(id.key)])
    }

    package func deleteSessions(userID: UUID, except: UUID?) async throws -> Int {
        let rows = try await query(
            "DELETE FROM sessions WHERE user_id = ? AND id != ? RETURNING id",
            [.text(userID.key), .text(except?.key ?? "")]
        )
        return rows.count
    }
}
