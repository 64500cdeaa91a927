import Foundation
import GatehouseCore
import HTTPTypes

extension OneTimeCodes {
    /// Checks and consumes the e-mailed reauthentication code of `GET /reauthenticate`, or
    /// throws 422 `reauthentication_not_valid`.
    func consumeReauthentication(
        _ nonce: String,
        userID: UUID,
        in tx: any StorageTransaction,
        now: Date
    ) async throws {
        guard let record = try await tx.code(userID: userID, purpose: .reauthentication),
            record.expiresAt > now,
            matches(nonce, record)
        else {
            throw APIError(
                .unprocessableContent,
                .reauthenticationNotValid,
                "Requested reauthentication nonce is invalid"
            )
        }
        try await tx.deleteCode(userID: userID, purpose: .reauthentication)
    }
}
