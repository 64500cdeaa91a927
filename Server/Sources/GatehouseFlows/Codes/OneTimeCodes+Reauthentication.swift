import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

extension OneTimeCodes {
    /// Checks the e-mailed reauthentication code of `GET /reauthenticate` in `tx`: a match
    /// consumes it; every try is counted first, in one statement, so that concurrent guesses
    /// never pass `maximumAttempts` (`security.md` OTP-5). The caller commits `tx` either way
    /// and throws ``reauthenticationNotValid`` after a miss.
    ///
    /// - Returns: Whether `nonce` was the live code.
    func consumeReauthentication(
        _ nonce: String,
        userID: UUID,
        maximumAttempts: Int,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Bool {
        guard
            let record = try await tx.countCodeAttempt(
                userID: userID,
                purpose: .reauthentication,
                below: maximumAttempts
            ),
            record.expiresAt > now, matches(nonce, record)
        else { return false }
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
