package import Foundation
import GatehouseServerSupport
package import GatehouseStorage

/// Appends audit-log lines (who did what, from where; never a secret) inside a transaction, so
/// that a line exists exactly when its change committed.
package struct AuditLog: Sendable {
    let now: @Sendable () -> Date

    /// Records `action` by `actor` from `ip` in `tx`.
    package func record(
        _ action: AuditAction,
        actor: UUID?,
        ip: String?,
        detail: String? = nil,
        subject: UUID? = nil,
        in tx: any StorageTransaction
    ) async throws {
        try await tx.appendAudit(entry(action, actor: actor, ip: ip, detail: detail, subject: subject))
    }

    /// The line for `action` by `actor` from `ip`, now, for a write that appends it itself.
    func entry(
        _ action: AuditAction,
        actor: UUID?,
        ip: String?,
        detail: String? = nil,
        subject: UUID? = nil
    ) -> AuditEntry {
        AuditEntry(at: now(), action: action, actorID: actor, ip: ip, detail: detail, subjectID: subject)
    }
}
