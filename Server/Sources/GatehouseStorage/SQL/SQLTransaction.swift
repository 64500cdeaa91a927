package import Foundation
import GatehouseCore
import GatehouseServerSupport

/// The statements of one transaction, in the SQL that SQLite and PostgreSQL share (`?`
/// placeholders, `ON CONFLICT`, `RETURNING`); each database supplies an ``SQLExecutor``.
///
/// Users are here; sessions, codes, identities, and keys with the audit log are in its
/// `SQLTransaction+…` files.
package struct SQLTransaction: StorageTransaction {
    package let executor: any SQLExecutor
    /// Whether reading a user also locks its row until the transaction ends (PostgreSQL
    /// transactions). A flow reads a user, changes it and writes the whole row back; under
    /// PostgreSQL's read committed, a ban or password change committed between the read and the
    /// write would be overwritten. With the lock a second writer waits, then reads the winner's
    /// row. SQLite's transactions are exclusive already; reads outside a transaction lock nothing.
    package var locksUserRows = false

    package func query(_ sql: String, _ binds: [SQLValue] = []) async throws -> [SQLRow] {
        StatementLog.note(sql, dialect: executor.dialect)
        return try await executor.rows(sql, binds)
    }

    // MARK: - Users

    package static let userColumns = """
        id, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
        last_sign_in_at, raw_app_meta_data, raw_user_meta_data, is_anonymous, banned_until, role,
        created_at, updated_at, new_email, email_change_sent_at, password_code
        """

    package func insertUser(_ user: UserRecord) async throws {
        do {
            _ = try await query(
                "INSERT INTO users (\(Self.userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                userBinds(user)
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateEmail
        }
    }

    /// The user columns plus its identities as JSON, so that one statement reads both.
    package var userSelect: String {
        switch executor.dialect {
        case .sqlite: Self.sqliteUserSelect
        case .postgres: Self.postgresUserSelect
        }
    }

    package static let sqliteUserSelect = userSelect(.sqlite)
    package static let postgresUserSelect = userSelect(.postgres)

    package static func userSelect(_ dialect: SQLDialect) -> String {
        "SELECT \(userColumns), \(dialect.identitiesJSON) AS identities_json, \(dialect.factorsJSON) AS factors_json FROM users"
    }

    package func user(id: UUID) async throws -> UserRecord? {
        try await query("\(userSelect) WHERE id = ?\(userLock)", [.text(id.key)]).first.map(user(from:))
    }

    package func user(email: String) async throws -> UserRecord? {
        try await query("\(userSelect) WHERE email = ?\(userLock)", [.text(email.lowercased())]).first.map(
            user(from:)
        )
    }

    /// `FOR NO KEY UPDATE` (the lock an `UPDATE` of the row takes, which still lets other
    /// transactions insert rows that refer to the user) when ``locksUserRows``.
    private var userLock: String { locksUserRows ? " FOR NO KEY UPDATE OF users" : "" }

    package func updateUser(_ user: UserRecord) async throws {
        var binds = Array(userBinds(user).dropFirst())
        binds.append(.text(user.id.key))
        do {
            _ = try await query(
                """
                UPDATE users SET email = ?, encrypted_password = ?, email_confirmed_at = ?, confirmation_sent_at = ?,
                recovery_sent_at = ?, last_sign_in_at = ?, raw_app_meta_data = ?, raw_user_meta_data = ?,
                is_anonymous = ?, banned_until = ?, role = ?, created_at = ?, updated_at = ?, new_email = ?,
                email_change_sent_at = ?, password_code = ? WHERE id = ?
                """,
                binds
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateEmail
        }
    }

    /// A page of users by creation time, and the total, without reading the users table beyond
    /// the page: the first key of the page is found in the `users_created_at` index alone
    /// (`created_at, id`, all the subquery reads), the page is read from that key on, and the
    /// total is the sum the triggers of `user_counts` keep.
    package func listUsers(offset: Int, limit: Int) async throws -> ([UserRecord], Int) {
        let page =
            switch executor.dialect {
            case .sqlite: Self.sqliteUserPage
            case .postgres: Self.postgresUserPage
            }
        let users = try await query(page, [.integer(offset), .integer(limit)]).map(user(from:))
        let counted = try await query("SELECT CAST(SUM(n) AS BIGINT) AS total FROM user_counts")
        let total = counted.first?.column("total")?.integer ?? 0
        return (users, total)
    }

    package static let sqliteUserPage = userPage(.sqlite)
    package static let postgresUserPage = userPage(.postgres)

    /// A page of users from the key at an offset (binds: the offset, the page's size).
    package static func userPage(_ dialect: SQLDialect) -> String {
        """
        \(userSelect(dialect)) WHERE (created_at, id) >= (
            SELECT created_at, id FROM users ORDER BY created_at, id LIMIT 1 OFFSET ?
        ) ORDER BY created_at, id LIMIT ?
        """
    }

    package func deleteUser(id: UUID) async throws {
        _ = try await query("DELETE FROM users WHERE id = ?", [.text(id.key)])
    }

    package func userBinds(_ user: UserRecord) -> [SQLValue] {
        [
            .text(user.id.key), user.email.map { .text($0.lowercased()) } ?? .null,
            user.passwordHash.map(SQLValue.text) ?? .null, .date(user.emailConfirmedAt),
            .date(user.confirmationSentAt), .date(user.recoverySentAt), .date(user.lastSignInAt),
            .text(JSONText.encode(user.appMetadata)), .text(JSONText.encode(user.userMetadata)),
            .integer(user.isAnonymous ? 1 : 0), .date(user.bannedUntil), .text(user.role),
            .float(user.createdAt.timeIntervalSince1970), .float(user.updatedAt.timeIntervalSince1970),
            user.newEmail.map { .text($0.lowercased()) } ?? .null, .date(user.emailChangeSentAt),
            user.passwordCode.map(SQLValue.text) ?? .null,
        ]
    }

    package func user(from row: SQLRow) throws -> UserRecord {
        var user = try UserRecord(
            id: try row.uuid("id", of: "users"),
            email: row.column("email")?.string,
            passwordHash: row.column("encrypted_password")?.string,
            emailConfirmedAt: row.date("email_confirmed_at"),
            confirmationSentAt: row.date("confirmation_sent_at"),
            recoverySentAt: row.date("recovery_sent_at"),
            newEmail: row.column("new_email")?.string,
            emailChangeSentAt: row.date("email_change_sent_at"),
            passwordCode: row.column("password_code")?.string,
            lastSignInAt: row.date("last_sign_in_at"),
            appMetadata: try row.jsonObject("raw_app_meta_data", of: "users"),
            userMetadata: try row.jsonObject("raw_user_meta_data", of: "users"),
            isAnonymous: (try row.integer("is_anonymous", of: "users")) != 0,
            bannedUntil: row.date("banned_until"),
            role: try row.text("role", of: "users"),
            createdAt: try row.date("created_at", of: "users"),
            updatedAt: try row.date("updated_at", of: "users"),
            identities: Self.identities(fromJSON: row.column("identities_json")?.string)
        )
        user.factors = try Self.factors(fromJSON: row.column("factors_json")?.string)
        return user
    }
}
