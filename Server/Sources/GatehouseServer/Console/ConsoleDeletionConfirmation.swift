import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// What an operator must type to delete an account from the console: the user's address, or
/// their id when they have none (a guest, a provider-only account). Case and surrounding spaces
/// do not matter; anything else refuses the deletion.
struct ConsoleDeletionConfirmation: Sendable, Equatable {
    /// The text the operator is asked to type.
    let expected: String

    init(for user: UserRecord) {
        expected = user.email ?? user.id.key
    }

    /// Whether `typed` names this user.
    func isConfirmed(by typed: String?) -> Bool {
        guard let typed else { return false }
        return typed.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == expected.lowercased()
    }

    /// The refusal when it does not: 422, nothing deleted.
    var refusal: APIError {
        APIError(
            .unprocessableContent,
            .validationFailed,
            "Not deleted: type the user's \(expected.contains("@") ? "address" : "id"), \(expected), exactly to confirm."
        )
    }
}
