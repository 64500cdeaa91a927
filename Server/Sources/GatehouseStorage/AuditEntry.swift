public import Foundation
import GatehouseServerSupport

/// One audit-log line: who did what, from where. Never a secret.
public struct AuditEntry: Sendable, Equatable {
    public var at: Date
    /// What was done (its text is the `action` column).
    public var action: AuditAction
    public var actorID: UUID?
    public var ip: String?
    public var detail: String?
    /// The user the action was done to, when the actor is someone else (an operator banning a
    /// user through the console: the operator acts, the user is the subject).
    public var subjectID: UUID?

    public init(
        at: Date,
        action: AuditAction,
        actorID: UUID? = nil,
        ip: String? = nil,
        detail: String? = nil,
        subjectID: UUID? = nil
    ) {
        self.at = at
        self.action = action
        self.actorID = actorID
        self.ip = ip
        self.detail = detail
        self.subjectID = subjectID
    }
}
