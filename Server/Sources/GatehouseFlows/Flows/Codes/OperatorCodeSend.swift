import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// An operator's send of a user's code from the console (a recovery code, a sign-up
/// confirmation), after the mail budgets admitted it: one transaction reads the user again (still
/// there, same address), checks what the send needs, issues the code and writes the audit line
/// with the operator as actor and the user as subject. The code's mail goes out once it commits,
/// and the admission is given back when nothing was issued. The two sends differ only in their
/// check, their code and their line.
struct OperatorCodeSend: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let audit: AuditLog

    func callAsFunction(
        to user: UserRecord,
        at email: String,
        admitted: MailBudget.Admission,
        recording action: AuditAction,
        operator: UUID,
        ip: String,
        check: @escaping @Sendable (UserRecord) throws -> Void = { _ in },
        issue: @escaping @Sendable (UserRecord, any StorageTransaction) async throws -> IssuedCode?
    ) async throws {
        let (storage, audit) = (self.storage, self.audit)
        try await delivery.issueNow(admitted: admitted) {
            try await storage.transaction { tx in
                guard let current = try await tx.user(id: user.id), current.email == email else {
                    throw APIError(.notFound, .userNotFound, "User not found")
                }
                try check(current)
                let issued = try await issue(current, tx)
                try await audit.record(action, actor: `operator`, ip: ip, subject: user.id, in: tx)
                return issued
            }
        }
    }
}
