import Foundation
import GatehouseCore

/// The statements of one transaction, in the SQL that SQLite and PostgreSQL share (`?`
/// placeholders, `ON CONFLICT`, `RETURNING`); each database supplies an ``SQLExecutor``.
struct SQLTransaction: StorageTransaction {
    let executor: any SQLExecutor

    private func query(_ sql: String, _ binds: [SQLValue] = []) async throws -> [SQLRow] {
        try await executor.rows(sql, binds)
    }

    // MARK: - Users

    private static let userColumns = """
        id, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
        last_sign_in_at, raw_app_meta_data, raw_user_meta_data, is_anonymous, banned_until, role,
        created_at, updated_at
        """

    func insertUser(_ user: UserRecord) async throws {
        do {
            _ = try await query(
                "INSERT INTO users (\(Self.userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                userBinds(user)
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateEmail
        }
    }

    /// The user columns plus its identities as JSON, so that one statement reads both.
    private var userSelect: String {
        switch executor.dialect {
        case .sqlite: Self.sqliteUserSelect
        case .postgres: Self.postgresUserSelect
        }
    }

    private static let sqliteUserSelect = userSelect(.sqlite)
    private static let postgresUserSelect = userSelect(.postgres)

    private static func userSelect(_ dialect: SQLDialect) -> String {
        "SELECT \(userColumns), \(dialect.identitiesJSON) AS identities_json FROM users"
    }

    func user(id: UUID) async throws -> UserRecord? {
        try await query("\(userSelect) WHERE id = ?", [.text(id.key)]).first.map(user(from:))
    }

    func user(email: String) async throws -> UserRecord? {
        try await query("\(userSelect) WHERE email = ?", [.text(email.lowercased())]).first.map(user(from:))
    }

    func updateUser(_ user: UserRecord) async throws {
        var binds = Array(userBinds(user).dropFirst())
        binds.append(.text(user.id.key))
        do {
            _ = try await query(
                """
                UPDATE users SET email = ?, encrypted_password = ?, email_confirmed_at = ?, confirmation_sent_at = ?,
                recovery_sent_at = ?, last_sign_in_at = ?, raw_app_meta_data = ?, raw_user_meta_data = ?,
                is_anonymous = ?, banned_until = ?, role = ?, created_at = ?, updated_at = ? WHERE id = ?
                """,
                binds
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateEmail
        }
    }

    func listUsers(offset: Int, limit: Int) async throws -> ([UserRecord], Int) {
        let users = try await query(
            "\(userSelect) ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.integer(limit), .integer(offset)]
        ).map(user(from:))
        let total = try await query("SELECT COUNT(*) AS total FROM users").first?.column("total")?.integer ?? 0
        return (users, total)
    }

    func deleteUser(id: UUID) async throws {
        _ = try await query("DELETE FROM users WHERE id = ?", [.text(id.key)])
    }

    private func userBinds(_ user: UserRecord) -> [SQLValue] {
        [
            .text(user.id.key), user.email.map { .text($0.lowercased()) } ?? .null,
            user.passwordHash.map(SQLValue.text) ?? .null, .date(user.emailConfirmedAt),
            .date(user.confirmationSentAt), .date(user.recoverySentAt), .date(user.lastSignInAt),
            .text(JSONText.encode(user.appMetadata)), .text(JSONText.encode(user.userMetadata)),
            .integer(user.isAnonymous ? 1 : 0), .date(user.bannedUntil), .text(user.role),
            .float(user.createdAt.timeIntervalSince1970), .float(user.updatedAt.timeIntervalSince1970),
        ]
    }

    private func user(from row: SQLRow) -> UserRecord {
        UserRecord(
            id: UUID(uuidString: row.column("id")?.string ?? "") ?? UUID(),
            email: row.column("email")?.string,
            passwordHash: row.column("encrypted_password")?.string,
            emailConfirmedAt: row.date("email_confirmed_at"),
            confirmationSentAt: row.date("confirmation_sent_at"),
            recoverySentAt: row.date("recovery_sent_at"),
            lastSignInAt: row.date("last_sign_in_at"),
            appMetadata: JSONText.decode(row.column("raw_app_meta_data")?.string),
            userMetadata: JSONText.decode(row.column("raw_user_meta_data")?.string),
            isAnonymous: (row.column("is_anonymous")?.integer ?? 0) != 0,
            bannedUntil: row.date("banned_until"),
            role: row.column("role")?.string ?? "authenticated",
            createdAt: row.date("created_at") ?? Date(timeIntervalSince1970: 0),
            updatedAt: row.date("updated_at") ?? Date(timeIntervalSince1970: 0),
            identities: Self.identities(fromJSON: row.column("identities_json")?.string)
        )
    }

    // MARK: - Sessions

    func insertSession(_ session: SessionRecord) async throws {
        _ = try await query(
            """
            INSERT INTO sessions (id, user_id, salt, counter, created_at, refreshed_at, rotated_at, amr)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.id.key), .text(session.userID.key), .text(session.salt), .integer(Int(session.counter)),
                .float(session.createdAt.timeIntervalSince1970), .float(session.refreshedAt.timeIntervalSince1970),
                .date(session.rotatedAt), .text(JSONText.encode(session.amr)),
            ]
        )
    }

    func session(id: UUID) async throws -> SessionRecord? {
        try await query(
            "SELECT \(Self.sessionColumns) FROM sessions s WHERE s.id = ?",
            [.text(id.key)]
        ).first.map(session(from:))
    }

    func sessionWithUser(id: UUID) async throws -> (SessionRecord, UserRecord)? {
        let sql =
            switch executor.dialect {
            case .sqlite: Self.sqliteSessionWithUser
            case .postgres: Self.postgresSessionWithUser
            }
        guard let row = try await query(sql, [.text(id.key)]).first else { return nil }
        return (session(from: row), user(from: row))
    }

    private static let sqliteSessionWithUser = sessionWithUserSelect(.sqlite)
    private static let postgresSessionWithUser = sessionWithUserSelect(.postgres)

    private static func sessionWithUserSelect(_ dialect: SQLDialect) -> String {
        let qualified = userColumns.split(separator: ",").map {
            "users." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return """
            SELECT \(qualified.joined(separator: ", ")), \(dialect.identitiesJSON) AS identities_json,
            \(sessionColumns) FROM sessions s JOIN users ON users.id = s.user_id WHERE s.id = ?
            """
    }

    /// Session columns, prefixed `s_` so that they can share a row with a user's.
    private static let sessionColumns = """
        s.id AS s_id, s.user_id AS s_user_id, s.salt AS s_salt, s.counter AS s_counter, s.created_at AS s_created_at,
        s.refreshed_at AS s_refreshed_at, s.rotated_at AS s_rotated_at, s.amr AS s_amr
        """

    private func session(from row: SQLRow) -> SessionRecord {
        SessionRecord(
            id: UUID(uuidString: row.column("s_id")?.string ?? "") ?? UUID(),
            userID: UUID(uuidString: row.column("s_user_id")?.string ?? "") ?? UUID(),
            salt: row.column("s_salt")?.string ?? "",
            counter: Int64(row.column("s_counter")?.integer ?? 0),
            createdAt: row.date("s_created_at") ?? Date(timeIntervalSince1970: 0),
            refreshedAt: row.date("s_refreshed_at") ?? Date(timeIntervalSince1970: 0),
            rotatedAt: row.date("s_rotated_at"),
            amr: (try? JSONText.decoder.decode([AMREntry].self, from: Data((row.column("s_amr")?.string ?? "[]").utf8)))
                ?? []
        )
    }

    func rotateSession(id: UUID, expectedCounter: Int64, at now: Date) async throws -> Bool {
        let rows = try await query(
            """
            UPDATE sessions SET counter = counter + 1, rotated_at = ?, refreshed_at = ?
            WHERE id = ? AND counter = ? RETURNING counter
            """,
            [
                .float(now.timeIntervalSince1970), .float(now.timeIntervalSince1970), .text(id.key),
                .integer(Int(expectedCounter)),
            ]
        )
        return !rows.isEmpty
    }

    func deleteSession(id: UUID) async throws {
        _ = try await query("DELETE FROM sessions WHERE id = ?", [.text(id.key)])
    }

    func deleteSessions(userID: UUID, except: UUID?) async throws -> Int {
        let rows = try await query(
            "DELETE FROM sessions WHERE user_id = ? AND id != ? RETURNING id",
            [.text(userID.key), .text(except?.key ?? "")]
        )
        return rows.count
    }

    // MARK: - Codes

    func upsertCode(_ code: CodeRecord) async throws {
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

    private static let codeColumns = "user_id, purpose, code_hash, link_hash, email, expires_at, attempts, created_at"

    func code(userID: UUID, purpose: CodePurpose) async throws -> CodeRecord? {
        try await query(
            "SELECT \(Self.codeColumns) FROM one_time_codes WHERE user_id = ? AND purpose = ?",
            [.text(userID.key), .text(purpose.rawValue)]
        ).first.flatMap(code(from:))
    }

    func code(linkHash: String) async throws -> CodeRecord? {
        try await query("SELECT \(Self.codeColumns) FROM one_time_codes WHERE link_hash = ?", [.text(linkHash)])
            .first.flatMap(code(from:))
    }

    func updateCodeAttempts(userID: UUID, purpose: CodePurpose, attempts: Int) async throws {
        _ = try await query(
            "UPDATE one_time_codes SET attempts = ? WHERE user_id = ? AND purpose = ?",
            [.integer(attempts), .text(userID.key), .text(purpose.rawValue)]
        )
    }

    func deleteCode(userID: UUID, purpose: CodePurpose) async throws {
        _ = try await query(
            "DELETE FROM one_time_codes WHERE user_id = ? AND purpose = ?",
            [.text(userID.key), .text(purpose.rawValue)]
        )
    }

    /// A code row; `nil` for a purpose this server does not know (never written by it).
    private func code(from row: SQLRow) -> CodeRecord? {
        guard let purpose = row.column("purpose")?.string.flatMap(CodePurpose.init(rawValue:)) else { return nil }
        return CodeRecord(
            userID: UUID(uuidString: row.column("user_id")?.string ?? "") ?? UUID(),
            purpose: purpose,
            codeHash: row.column("code_hash")?.string ?? "",
            linkHash: row.column("link_hash")?.string ?? "",
            email: row.column("email")?.string ?? "",
            expiresAt: row.date("expires_at") ?? Date(timeIntervalSince1970: 0),
            attempts: row.column("attempts")?.integer ?? 0,
            createdAt: row.date("created_at") ?? Date(timeIntervalSince1970: 0)
        )
    }

    // MARK: - Keys and audit

    // MARK: - Identities

    private static let identityColumns =
        "id, user_id, provider, provider_id, email, identity_data, last_sign_in_at, created_at, updated_at"

    func identity(provider: String, subject: String) async throws -> IdentityRecord? {
        try await query(
            "SELECT \(Self.identityColumns) FROM identities WHERE provider = ? AND provider_id = ?",
            [.text(provider), .text(subject)]
        ).first.map(identity(from:))
    }

    func insertIdentity(_ identity: IdentityRecord) async throws {
        do {
            _ = try await query(
                "INSERT INTO identities (\(Self.identityColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(identity.id.key), .text(identity.userID.key), .text(identity.provider),
                    .text(identity.subject), identity.email.map(SQLValue.text) ?? .null,
                    .text(JSONText.encode(identity.data)), .date(identity.lastSignInAt),
                    .float(identity.createdAt.timeIntervalSince1970), .float(identity.updatedAt.timeIntervalSince1970),
                ]
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateIdentity
        }
    }

    func updateIdentity(_ identity: IdentityRecord) async throws {
        _ = try await query(
            "UPDATE identities SET email = ?, identity_data = ?, last_sign_in_at = ?, updated_at = ? WHERE id = ?",
            [
                identity.email.map(SQLValue.text) ?? .null, .text(JSONText.encode(identity.data)),
                .date(identity.lastSignInAt), .float(identity.updatedAt.timeIntervalSince1970), .text(identity.id.key),
            ]
        )
    }

    func deleteIdentity(id: UUID, userID: UUID) async throws -> Bool {
        !(try await query(
            "DELETE FROM identities WHERE id = ? AND user_id = ? RETURNING id",
            [.text(id.key), .text(userID.key)]
        ).isEmpty)
    }

    func consumeNonce(provider: String, hash: String, expiresAt: Date, now: Date) async throws -> Bool {
        _ = try await query("DELETE FROM used_nonces WHERE expires_at < ?", [.date(now)])
        let inserted = try await query(
            """
            INSERT INTO used_nonces (provider, nonce_hash, expires_at) VALUES (?, ?, ?)
            ON CONFLICT (provider, nonce_hash) DO NOTHING RETURNING nonce_hash
            """,
            [.text(provider), .text(hash), .date(expiresAt)]
        )
        return !inserted.isEmpty
    }

    /// Identities from the `identities_json` column of a user read.
    private static func identities(fromJSON text: String?) -> [IdentityRecord] {
        // Most users have no provider identity: no parse for them.
        guard let text, text != "[]", let data = text.data(using: .utf8),
            let objects = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return objects.map { object in
            var values: [String: SQLValue] = [:]
            for (name, value) in object {
                switch value {
                case let text as String: values[name] = .text(text)
                case let number as NSNumber: values[name] = .float(number.doubleValue)
                default: values[name] = .null
                }
            }
            return IdentityRecord(row: SQLRow(values: values))
        }
    }

    private func identity(from row: SQLRow) -> IdentityRecord {
        IdentityRecord(row: row)
    }
}

extension IdentityRecord {
    fileprivate init(row: SQLRow) {
        self.init(
            id: UUID(uuidString: row.column("id")?.string ?? "") ?? UUID(),
            userID: UUID(uuidString: row.column("user_id")?.string ?? "") ?? UUID(),
            provider: row.column("provider")?.string ?? "",
            subject: row.column("provider_id")?.string ?? "",
            email: row.column("email")?.string,
            data: JSONText.decode(row.column("identity_data")?.string),
            lastSignInAt: row.date("last_sign_in_at"),
            createdAt: row.date("created_at") ?? Date(timeIntervalSince1970: 0),
            updatedAt: row.date("updated_at") ?? Date(timeIntervalSince1970: 0)
        )
    }
}

extension SQLTransaction {
    // MARK: - Signing keys

    func lockSigningKeys() async throws {
        try await executor.lock(0x6b65_7973)
    }

    func signingKeys() async throws -> [SigningKeyRecord] {
        try await query("SELECT kid, algorithm, private_pem, created_at FROM signing_keys ORDER BY created_at").map {
            SigningKeyRecord(
                kid: $0.column("kid")?.string ?? "",
                algorithm: $0.column("algorithm")?.string ?? "",
                privatePEM: $0.column("private_pem")?.string ?? "",
                createdAt: $0.date("created_at") ?? Date(timeIntervalSince1970: 0)
            )
        }
    }

    func insertSigningKey(_ key: SigningKeyRecord) async throws {
        _ = try await query(
            "INSERT INTO signing_keys (kid, algorithm, private_pem, created_at) VALUES (?, ?, ?, ?)",
            [.text(key.kid), .text(key.algorithm), .text(key.privatePEM), .float(key.createdAt.timeIntervalSince1970)]
        )
    }

    func deleteSigningKey(kid: String) async throws -> Bool {
        !(try await query("DELETE FROM signing_keys WHERE kid = ? RETURNING kid", [.text(kid)]).isEmpty)
    }

    func appendAudit(_ entry: AuditEntry) async throws {
        _ = try await query(
            "INSERT INTO audit_log (at, action, actor_id, ip, detail) VALUES (?, ?, ?, ?, ?)",
            [
                .float(entry.at.timeIntervalSince1970), .text(entry.action),
                entry.actorID.map { .text($0.key) } ?? .null,
                entry.ip.map(SQLValue.text) ?? .null, entry.detail.map(SQLValue.text) ?? .null,
            ]
        )
    }

    func auditEntries(limit: Int) async throws -> [AuditEntry] {
        try await query(
            "SELECT at, action, actor_id, ip, detail FROM audit_log ORDER BY id DESC LIMIT ?",
            [.integer(limit)]
        )
        .map {
            AuditEntry(
                at: $0.date("at") ?? Date(timeIntervalSince1970: 0),
                action: $0.column("action")?.string ?? "",
                actorID: $0.column("actor_id")?.string.flatMap(UUID.init(uuidString:)),
                ip: $0.column("ip")?.string,
                detail: $0.column("detail")?.string
            )
        }
    }
}
