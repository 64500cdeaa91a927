package import Foundation
import GatehouseServerSupport

/// The statements of the mail outbox (``MailOutboxWriter``): a queue per address, claimed
/// with a lease as Apple's revocations are (``SQLTransaction/claimAppleRevocations(dueBy:leaseUntil:limit:)``).
extension SQLTransaction {
    package func enqueueMail(
        to recipient: String,
        subject: String,
        sealedBody: String,
        code: MailedCode?,
        at now: Date
    ) async throws {
        _ = try await query(
            """
            INSERT INTO mail_outbox (recipient, subject, body, user_id, purpose, link_hash, attempts,
                next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)
            """,
            [
                .text(recipient.lowercased()), .text(subject), .text(sealedBody),
                code.map { .text($0.userID.key) } ?? .null, code.map { .text($0.purpose.rawValue) } ?? .null,
                code.map { .text($0.linkHash) } ?? .null, .float(now.timeIntervalSince1970),
                .float(now.timeIntervalSince1970),
            ]
        )
    }

    package func claimMail(dueBy now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxMailRecord] {
        // PostgreSQL: instances sending at once take different rows instead of queueing. A
        // mail whose address has an older one queued (being sent, or waiting for a retry) waits,
        // so the order per address is the order of `id`; among addresses, the longest due first
        // (read by the index on the due time, never the whole queue).
        let lock =
            switch executor.dialect {
            case .sqlite: ""
            case .postgres: " FOR UPDATE SKIP LOCKED"
            }
        return try await query(
            """
            UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?
            WHERE id IN (
                SELECT m.id FROM mail_outbox m WHERE m.next_attempt_at <= ? AND NOT EXISTS (
                    SELECT 1 FROM mail_outbox older WHERE older.recipient = m.recipient AND older.id < m.id
                )
                ORDER BY m.next_attempt_at, m.id LIMIT ?\(lock)
            )
            RETURNING id, recipient, subject, body, user_id, purpose, link_hash, attempts, created_at
            """,
            [.float(leaseUntil.timeIntervalSince1970), .float(now.timeIntervalSince1970), .integer(limit)]
        ).map(outboxMail(from:)).sorted { $0.id < $1.id }
    }

    package func deleteMail(id: Int64) async throws {
        _ = try await query("DELETE FROM mail_outbox WHERE id = ?", [.integer(Int(id))])
    }

    package func rescheduleMail(id: Int64, at next: Date, error: String?) async throws {
        if let error {
            _ = try await query(
                "UPDATE mail_outbox SET next_attempt_at = ?, last_error = ? WHERE id = ?",
                [.float(next.timeIntervalSince1970), .text(error), .integer(Int(id))]
            )
        } else {
            // A claim handed back unsent (the drain at shutdown ran out of time): not an attempt.
            _ = try await query(
                "UPDATE mail_outbox SET next_attempt_at = ?, attempts = attempts - 1 WHERE id = ?",
                [.float(next.timeIntervalSince1970), .integer(Int(id))]
            )
        }
    }

    package func mailOutboxDepth() async throws -> MailOutboxDepth {
        let row = try await query("SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM mail_outbox").first
        return MailOutboxDepth(count: row?.column("depth")?.integer ?? 0, oldest: row?.date("oldest"))
    }

    private func outboxMail(from row: SQLRow) throws -> OutboxMailRecord {
        var code: MailedCode?
        if let user = row.column("user_id")?.string.flatMap(UUID.init(text:)),
            let purpose = row.column("purpose")?.string.flatMap(CodePurpose.init(rawValue:)),
            let linkHash = row.column("link_hash")?.string
        {
            code = MailedCode(userID: user, purpose: purpose, linkHash: linkHash)
        }
        return OutboxMailRecord(
            id: Int64(try row.integer("id", of: "mail_outbox")),
            recipient: try row.text("recipient", of: "mail_outbox"),
            subject: try row.text("subject", of: "mail_outbox"),
            sealedBody: try row.text("body", of: "mail_outbox"),
            code: code,
            attempts: try row.integer("attempts", of: "mail_outbox"),
            createdAt: try row.date("created_at", of: "mail_outbox")
        )
    }
}
