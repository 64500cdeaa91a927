package import Foundation
import GatehouseCore
import GatehouseServerSupport

extension SQLTransaction {
    package func lockSigningKeys() async throws {
        try await executor.lock(0x6b65_7973)
    }

    package func signingKeys() async throws -> [SigningKeyRecord] {
        try await query("SELECT kid, algorithm, private_pem, created_at FROM signing_keys ORDER BY created_at").map {
            SigningKeyRecord(
                kid: try $0.text("kid", of: "signing_keys"),
                algorithm: try $0.text("algorithm", of: "signing_keys"),
                privatePEM: try $0.text("private_pem", of: "signing_keys"),
                createdAt: try $0.date("created_at", of: "signing_keys")
            )
        }
    }

    package func insertSigningKey(_ key: SigningKeyRecord) async throws {
        _ = try await query(
            "INSERT INTO signing_keys (kid, algorithm, private_pem, created_at) VALUES (?, ?, ?, ?)",
            [.text(key.kid), .text(key.algorithm), .text(key.privatePEM), .float(key.createdAt.timeIntervalSince1970)]
        )
    }

    package func updateSigningKey(kid: String, privatePEM: String) async throws {
        _ = try await query("UPDATE signing_keys SET private_pem = ? WHERE kid = ?", [.text(privatePEM), .text(kid)])
    }

    package func deleteSigningKey(kid: String) async throws -> Bool {
        !(try await query("DELETE FROM signing_keys WHERE kid = ? RETURNING kid", [.text(kid)]).isEmpty)
    }

    package func revokeToken(jti: String, at now: Date) async throws {
        _ = try await query(
            "INSERT INTO revoked_tokens (jti, revoked_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING",
            [.text(jti), .float(now.timeIntervalSince1970)]
        )
    }

    package func isTokenRevoked(jti: String) async throws -> Bool {
        !(try await query("SELECT 1 AS one FROM revoked_tokens WHERE jti = ?", [.text(jti)]).isEmpty)
    }

    package func appendAudit(_ entry: AuditEntry) async throws {
        _ = try await query(Self.auditAppend, Self.auditBinds(entry))
    }

    /// One audit line (``auditBinds(_:)``).
    package static let auditAppend = "\(auditInsert) VALUES (?, ?, ?, ?, ?, ?)"

    package static let auditInsert = "INSERT INTO audit_log (at, action, actor_id, ip, detail, subject_id)"

    package static func auditBinds(_ entry: AuditEntry) -> [SQLValue] {
        [
            .float(entry.at.timeIntervalSince1970), .text(entry.action.rawValue),
            entry.actorID.map { .text($0.key) } ?? .null, entry.ip.map(SQLValue.text) ?? .null,
            entry.detail.map(SQLValue.text) ?? .null, entry.subjectID.map { .text($0.key) } ?? .null,
        ]
    }

    package func auditEntries(limit: Int) async throws -> [AuditEntry] {
        try await query(
            "SELECT at, action, actor_id, ip, detail FROM audit_log ORDER BY id DESC LIMIT ?",
            [.integer(limit)]
        )
        .map {
            AuditEntry(
                at: try $0.date("at", of: "audit_log"),
                action: AuditAction(rawValue: try $0.text("action", of: "audit_log")),
                actorID: $0.column("actor_id")?.string.flatMap(UUID.init(uuidString:)),
                ip: $0.column("ip")?.string,
                detail: $0.column("detail")?.string
            )
        }
    }
}
