import Foundation
import GatehouseCore

/// A permanent user's new e-mail address (`PUT /user` with `email`): nothing changes until the
/// code mailed to the new address is verified (`type=email_change`), which moves the address.
struct EmailChange: Sendable {
    let delivery: CodeDelivery

    /// Issues the confirmation code for `email` in `tx`.
    ///
    /// - Returns: The mail to send to the new address after the commit.
    func request(_ email: String, for user: UserRecord, in tx: any StorageTransaction, now: Date) async throws -> Mail?
    {
        try await delivery.issue(.emailChange, for: user.id, to: email, spacing: .ignore, in: tx, now: now)
    }
}
