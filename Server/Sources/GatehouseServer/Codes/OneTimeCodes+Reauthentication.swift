import Foundation
import GatehouseCore
import HTTPTypes

extension OneTimeCodes {
    /// Checks the e-mailed reauthentication code of `GET /reauthenticate` in `tx`: a match
    /// consumes it; a miss counts one wrong try (`security.md` OTP-5). The caller commits `tx`
    /// either way and throws ``reauthenticationNotValid`` after a miss.
    ///
    /// - Returns: Whether `nonce` was the live code.
    func consumeReauthentication(
        _ nonce: String,
        userID: UUID,
        maximumAttempts: Int,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Bool {
        guard let record = try await tx.code(userID: userID, purpose: .reauthentication),
            record.expiresAt > now, record.attempts < maximumAttempts
        else { return false }
        guard matches(nonce, record) else {
            try await tx.updateCodeAttempts(userID: userID, purpose: .reauthentication, attempts: record.attempts + 1)
            return false
        }
        try await tx.deleteCode(userID: userID, purpose: .reauthentication)
        return true
    }

    /// 422 `reauthentication_not_valid`.
    static let reauthenticationNotValid = APIError(
        .unprocessableContent,
        .reauthenticationNotValid,
        "Requested reauthentication nonce is invalid"
    )
}
