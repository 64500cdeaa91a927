package import Foundation
import GatehouseServerSupport

/// The console's statements: operators, console sessions, the audit page and the address search.
extension SQLTransaction {
    package func isOperator(userID: UUID) async throws -> Bool {
        !(try await query("SELECT 1 AS one FROM operators WHERE user_id = ?", [.text(userID.key)]).isEmpty)
    }

    package func hasOperators() async throws -> Bool {
        !(try await query("SELECT 1 AS one FROM operators LIMIT 1")).isEmpty
    }

    package func operators() async throws -> [OperatorRecord] {
        try await query(
            """
            SELECT user_id, granted_at, (SELECT email FROM users WHERE users.id = operators.user_id) AS email
            FROM operators ORDER BY granted_at, user_id
            """
        )
        .map {
            OperatorRecord(
                userID: try $0.uuid("user_id", of: "operators"),
                email: $0.column("email")?.string,
                grantedAt: try $0.date("granted_at", of: "operators")
            )
        }
    }

    package func insertOperator(userID: UUID, at now: Date) async throws -> Bool {
        !(try await query(
            "INSERT INTO operators (user_id, granted_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING RETURNING user_id",
            [.text(userID.key), .float(now.timeIntervalSince1970)]
        )).isEmpty
    }

    package func deleteOperator(userID: UUID) async throws -> (held: Bool, sessions: [UUID]) {
        let held = !(try await query(
            "DELETE FROM operators WHERE user_id = ? RETURNING user_id",
            [.text(userID.key)]
        )).isEmpty
        let sessions = try await query(
            "DELETE FROM console_sessions WHERE user_id = ? RETURNING session_id",
            [.text(userID.key)]
        )
        return (held, sessions.compactMap { $0.column("session_id")?.string.flatMap(UUID.init(text:)) })
    }

    package func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord? {
        try await query(
            "SELECT token_hash, session_id, user_id, created_at, last_seen_at FROM console_sessions WHERE token_hash = ?",
            [.text(tokenHash)]
        )
        .first.flatMap { row in
            guard let session = row.column("session_id")?.string.flatMap(UUID.init(text:)),
                let user = row.column("user_id")?.string.flatMap(UUID.init(text:))
            else { return nil }
            return ConsoleSessionRecord(
                tokenHash: tokenHash,
                sessionID: session,
                userID: user,
                createdAt: try row.date("created_at", of: "console_sessions"),
                lastSeenAt: try row.date("last_seen_at", of: "console_sessions")
            )
        }
    }

    package func insertConsoleSession(_ session: ConsoleSessionRecord) async throws {
        _ = try await query(
            """
            INSERT INTO console_sessions (token_hash, session_id, user_id, created_at, last_seen_at)
            VALUES (?, ?, ?, ?, ?)
            """,
            [
                .text(session.tokenHash), .text(session.sessionID.key), .text(session.userID.key),
                .float(session.createdAt.timeIntervalSince1970), .float(session.lastSeenAt.timeIntervalSince1970),
            ]
        )
    }

    package func touchConsoleSession(tokenHash: String, at now: Date) async throws {
        _ = try await query(
            "UPDATE console_sessions SET last_seen_at = ? WHERE token_hash = ?",
            [.float(now.timeIntervalSince1970), .text(tokenHash)]
        )
    }

    package func deleteConsoleSession(tokenHash: String) async throws -> UUID? {
        try await query("DELETE FROM console_sessions WHERE token_hash = ? RETURNING session_id", [.text(tokenHash)])
            .first?.column("session_id")?.string.flatMap(UUID.init(text:))
    }

    /// Without a user, one walk of an index (`id`, or `action, id`, or `at`); with one, the
    /// newest lines where the user acts and those where the user is the subject, each from its
    /// own index (`actor_id, id` and `subject_id, id`), merged: an `OR` of the two columns
    /// would walk the whole log.
    package func auditEntries(matching audit: AuditQuery) async throws -> [NumberedAuditEntry] {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let action = audit.action {
            conditions.append("action = ?")
            binds.append(.text(action.rawValue))
        }
        if let address = audit.address {
            conditions.append("ip = ?")
            binds.append(.text(address))
        }
        if let from = audit.from {
            conditions.append("at >= ?")
            binds.append(.float(from.timeIntervalSince1970))
        }
        if let until = audit.until {
            conditions.append("at < ?")
            binds.append(.float(until.timeIntervalSince1970))
        }
        if let before = audit.before {
            conditions.append("id < ?")
            binds.append(.integer(before))
        }
        let columns = "SELECT id, at, action, actor_id, ip, detail, subject_id FROM audit_log"
        let rows: [SQLRow]
        if let user = audit.user {
            func side(_ column: String) -> String {
                let filter = ([column + " = ?"] + conditions).joined(separator: " AND ")
                return "SELECT id FROM (SELECT id FROM audit_log WHERE \(filter) ORDER BY id DESC LIMIT ?) AS \(column)_lines"
            }
            let sideBinds: [SQLValue] = [.text(user.key)] + binds + [.integer(audit.limit)]
            rows = try await query(
                "\(columns) WHERE id IN (\(side("actor_id")) UNION \(side("subject_id"))) ORDER BY id DESC LIMIT ?",
                sideBinds + sideBinds + [.integer(audit.limit)]
            )
        } else {
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            rows = try await query("\(columns)\(filter) ORDER BY id DESC LIMIT ?", binds + [.integer(audit.limit)])
        }
        return try rows.map {
            NumberedAuditEntry(
                id: try $0.integer("id", of: "audit_log"),
                entry: AuditEntry(
                    at: try $0.date("at", of: "audit_log"),
                    action: AuditAction(rawValue: try $0.text("action", of: "audit_log")),
                    actorID: $0.column("actor_id")?.string.flatMap(UUID.init(text:)),
                    ip: $0.column("ip")?.string,
                    detail: $0.column("detail")?.string,
                    subjectID: $0.column("subject_id")?.string.flatMap(UUID.init(text:))
                )
            )
        }
    }

    package func dailyCounts(of actions: [AuditAction], since: Date) async throws -> [DailyCount] {
        guard !actions.isEmpty else { return [] }
        let day =
            switch executor.dialect {
            case .sqlite: "CAST(at / 86400 AS INTEGER)"
            case .postgres: "CAST(FLOOR(at / 86400) AS BIGINT)"
            }
        let marks = Array(repeating: "?", count: actions.count).joined(separator: ", ")
        return try await query(
            """
            SELECT \(day) AS day, action, COUNT(*) AS n FROM audit_log
            WHERE at >= ? AND action IN (\(marks)) GROUP BY \(day), action
            """,
            [.float(since.timeIntervalSince1970)] + actions.map { .text($0.rawValue) }
        )
        .map {
            DailyCount(
                day: try $0.integer("day", of: "audit_log"),
                action: AuditAction(rawValue: try $0.text("action", of: "audit_log")),
                count: try $0.integer("n", of: "audit_log")
            )
        }
    }

    package func users(emailPrefix prefix: String, limit: Int) async throws -> [UserRecord] {
        // A range of the address index: every address from the prefix up to the prefix followed
        // by the highest character.
        let low = prefix.lowercased()
        return try await query(
            "\(userSelect) WHERE email >= ? AND email < ? ORDER BY email LIMIT ?",
            [.text(low), .text(low + "\u{10FFFF}"), .integer(limit)]
        )
        .map(user(from:))
    }

    package func users(matching request: ConsoleUserQuery) async throws -> ConsoleUserPage {
        let (condition, conditionBinds) = Self.condition(of: request)
        // Before every user: no creation time is negative and no id is empty.
        let startBinds: [SQLValue] =
            request.after.map { [.float($0.createdAt.timeIntervalSince1970), .text($0.id.key)] } ?? [.float(-1), .text("")]
        // The users looked at: from the cursor up to the key `examined` users on, a range of the
        // `users_created_at` index (its end found in the index alone).
        let windowEnd = """
            (SELECT created_at, id FROM (SELECT created_at, id FROM users WHERE (created_at, id) > (?, ?)
            ORDER BY created_at, id LIMIT ?) AS examined ORDER BY created_at DESC, id DESC LIMIT 1)
            """
        let users = try await query(
            """
            \(userSelect) WHERE (created_at, id) > (?, ?) AND (created_at, id) <= \(windowEnd)
            AND \(condition) ORDER BY created_at, id LIMIT ?
            """,
            startBinds + startBinds + [.integer(request.examined)] + conditionBinds + [.integer(request.limit)]
        )
        .map(user(from:))
        if users.count == request.limit, let last = users.last {
            return ConsoleUserPage(users: users, next: ConsoleUserCursor(createdAt: last.createdAt, id: last.id))
        }
        // Fewer than a page: every user of the window was looked at; go on after its last one.
        let end = try await query(
            "SELECT created_at, id FROM users WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT 1 OFFSET ?",
            startBinds + [.integer(request.examined - 1)]
        )
        let next = end.first.flatMap { row -> ConsoleUserCursor? in
            guard let at = row.date("created_at"), let id = UUID(text: row.column("id")?.string ?? "") else { return nil }
            return ConsoleUserCursor(createdAt: at, id: id)
        }
        return ConsoleUserPage(users: users, next: next)
    }

    /// The SQL condition on a `users` row of each filter, and its binds. A condition on another
    /// table is a scalar subquery, not `EXISTS`: PostgreSQL would turn `EXISTS` into a join that
    /// may read the whole other table, where a subquery runs once per user of the window, from the
    /// other table's `user_id` index.
    private static func condition(of request: ConsoleUserQuery) -> (String, [SQLValue]) {
        switch request.filter {
        case .confirmed: ("is_anonymous = 0 AND email_confirmed_at IS NOT NULL", [])
        case .unconfirmed: ("is_anonymous = 0 AND email_confirmed_at IS NULL", [])
        case .guest: ("is_anonymous = 1", [])
        case .banned: ("banned_until > ?", [.float(request.now.timeIntervalSince1970)])
        case .mfa:
            ("(SELECT 1 FROM mfa_factors f WHERE f.user_id = users.id AND f.status = 'verified' LIMIT 1) IS NOT NULL", [])
        case .passkeys: ("(SELECT 1 FROM webauthn_credentials c WHERE c.user_id = users.id LIMIT 1) IS NOT NULL", [])
        case .provider:
            (
                "(SELECT 1 FROM identities i WHERE i.user_id = users.id AND i.provider = ? LIMIT 1) IS NOT NULL",
                [.text(request.provider?.rawValue ?? "")]
            )
        }
    }
}
