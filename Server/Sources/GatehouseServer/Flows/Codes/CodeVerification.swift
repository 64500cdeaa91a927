import Foundation
import GatehouseCore
import HTTPTypes

/// `POST /verify` and `GET /verify`: checks an e-mailed code (with the address) or a link's
/// `token_hash`, applies what the code was for (confirms the address, or moves it for an
/// address change), and signs in.
///
/// Codes are single use and die after ``maximumAttempts`` wrong tries; a wrong try is counted
/// in the same transaction, which commits even though the answer is an error.
struct CodeVerification: Sendable {
    let storage: any AuthStorage
    let codes: OneTimeCodes
    let limiter: any RateLimiter
    /// `/verify` requests per client address per 5 minutes.
    let requestLimit: Int
    /// Wrong attempts after which a code is dead.
    let maximumAttempts: Int
    let sessions: SessionIssuer
    let audit: AuditLog
    let now: @Sendable () -> Date

    private enum Outcome: Sendable {
        case session(SessionGrant)
        case failure(APIError)
    }

    /// Verifies and signs in, or throws 403 `otp_expired` (wrong, used, dead or expired code),
    /// 403 `user_banned`, 400 `validation_failed`, or 429.
    func callAsFunction(_ body: VerifyRequest, ip: String) async throws -> WireSession {
        let now = now()
        try await limiter.hit(.verify, key: ip, limit: requestLimit, window: 300, now: now)
        guard let purposes = CodePurpose.verified(by: body.type) else {
            throw APIError.validation("Unsupported verification type")
        }
        let outcome: Outcome = try await storage.transaction { tx in
            let record: CodeRecord
            switch try await find(body, purposes: purposes, in: tx, now: now) {
            case .success(let found): record = found
            case .failure(let error): return .failure(error)
            }
            guard record.expiresAt > now, record.attempts < maximumAttempts,
                var user = try await tx.user(id: record.userID)
            else {
                return .failure(.otpExpired)
            }
            if user.isBanned(at: now) { return .failure(APIError(.forbidden, .userBanned, "User is banned")) }
            try await tx.deleteCode(userID: record.userID, purpose: record.purpose)
            if record.purpose == .emailChange {
                user.email = record.email
                user.emailConfirmedAt = now
            } else {
                user.emailConfirmedAt = user.emailConfirmedAt ?? now
            }
            if user.isAnonymous, user.email != nil { user.isAnonymous = false }
            user.lastSignInAt = now
            user.updatedAt = now
            try await tx.updateUser(user)
            try await audit.record("verified", actor: user.id, ip: ip, detail: record.purpose.rawValue, in: tx)
            return .session(try await sessions.open(for: user, method: record.purpose.signInMethod, in: tx, at: now))
        }
        switch outcome {
        case .session(let grant): return try await sessions.answer(grant, now: now)
        case .failure(let error): throw error
        }
    }

    /// The code `body` names: by link hash, or by address and digits (counting a wrong try
    /// against each live code of the accepted purposes).
    private func find(
        _ body: VerifyRequest,
        purposes: [CodePurpose],
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Result<CodeRecord, APIError> {
        if let hash = body.tokenHash {
            guard let found = try await tx.code(linkHash: Hex.sha256(hash)), purposes.contains(found.purpose) else {
                return .failure(.otpExpired)
            }
            return .success(found)
        }
        guard let token = body.token, !token.isEmpty else {
            return .failure(.validation("Verify requires a token or a token_hash"))
        }
        let email = try EmailAddress.normalized(body.email)
        guard let user = try await tx.user(email: email) else { return .failure(.otpExpired) }
        for purpose in purposes {
            guard let candidate = try await tx.code(userID: user.id, purpose: purpose) else { continue }
            if candidate.expiresAt <= now || candidate.attempts >= maximumAttempts { continue }
            if codes.matches(token, candidate) { return .success(candidate) }
            try await tx.updateCodeAttempts(userID: user.id, purpose: purpose, attempts: candidate.attempts + 1)
        }
        return .failure(.otpExpired)
    }
}
