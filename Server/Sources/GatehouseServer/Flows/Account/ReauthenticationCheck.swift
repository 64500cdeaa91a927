import Foundation
import GatehouseCore

/// The gate of `PUT /user` and `DELETE /user`: a per-user request limit and the reauthentication
/// `nonce`, checked in its own transaction so a wrong try is counted even though the request fails
/// (`security.md` SE-6, OTP-5).
struct ReauthenticationCheck: Sendable {
    let storage: any AuthStorage
    let codes: OneTimeCodes
    let limiter: any RateLimiter
    /// `PUT /user` and `DELETE /user` requests per user per 5 minutes.
    let requestLimit: Int
    /// Wrong tries after which a reauthentication code is dead.
    let maximumAttempts: Int

    /// Counts the request against the user's limit (429), then consumes `nonce` when given
    /// (422 `reauthentication_not_valid` when wrong, used, expired or dead).
    func callAsFunction(_ nonce: String?, userID: UUID, now: Date) async throws {
        try await limiter.hit(
            .userUpdate,
            key: userID.uuidString.lowercased(),
            limit: requestLimit,
            window: 300,
            now: now
        )
        guard let nonce else { return }
        let valid = try await storage.transaction { tx in
            try await codes.consumeReauthentication(
                nonce,
                userID: userID,
                maximumAttempts: maximumAttempts,
                in: tx,
                now: now
            )
        }
        guard valid else { throw OneTimeCodes.reauthenticationNotValid }
    }
}
