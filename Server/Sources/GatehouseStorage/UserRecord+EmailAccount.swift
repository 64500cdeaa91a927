package import Foundation
package import GatehouseCore

extension UserRecord {
    /// A new account of an e-mail address, not confirmed yet: the `email` provider in its
    /// `app_metadata`, the caller's `user_metadata`, created now. Sign-up, a code sign-in's new
    /// account, an invitation and an admin's generated link all start from it.
    package static func emailAccount(
        _ email: String,
        passwordHash: String? = nil,
        confirmationSentAt: Date? = nil,
        metadata: [String: JSONValue]?,
        now: Date
    ) -> UserRecord {
        UserRecord(
            email: email,
            passwordHash: passwordHash,
            confirmationSentAt: confirmationSentAt,
            appMetadata: ["provider": "email", "providers": ["email"]],
            userMetadata: metadata ?? [:],
            createdAt: now,
            updatedAt: now
        )
    }
}
