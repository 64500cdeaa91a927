package import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /factors/{id}/verify`: checks an authenticator app's code for a challenge and raises the
/// caller's session to AAL2 (a `totp` entry in `amr`, a new refresh token); the user's other
/// sessions below AAL2 end.
///
/// A factor not verified yet becomes a way in here (``SensitiveAction/verifyNewFactor``): only
/// the session that enrolled it may verify it, and its first verification, if the user had no
/// verified factor, deletes the user's other unverified factors. Both are checked again inside
/// the transaction that marks it verified, after the user's factors are locked, so that two
/// sessions verifying at once cannot both win. The owner is told a way in was added.
///
/// A challenge answers one verify, from the address that created it, within 300 s; it dies after
/// 5 codes. Each code is counted in a transaction that commits before the comparison, so that
/// concurrent guesses never pass the cap together, and against the user's wrong codes
/// (``MFABudget``). A code accepted once is refused for the rest of its window and so is any older
/// one (the factor keeps the newest accepted 30 s step).
package struct FactorVerification: Sendable {
    let storage: any AuthStorage
    let sealing: FactorSecretSealing
    let budget: MFABudget
    let sensitive: SensitiveActionGuard
    let sessions: SessionIssuer
    let audit: AuditLog
    let now: @Sendable () -> Date

    private enum Counted: Sendable {
        case factor(FactorRecord)
        case failure(APIError)
    }

    package func callAsFunction(
        factorID: UUID,
        _ body: VerifyFactorRequest,
        caller: Caller,
        ip: String
    ) async throws -> WireSession {
        do {
            let session = try await verify(factorID: factorID, body, caller: caller, ip: ip)
            AuthMetrics.secondFactorVerified(.totp, error: nil)
            return session
        } catch {
            AuthMetrics.secondFactorVerified(.totp, error: error)
            throw error
        }
    }

    private func verify(
        factorID: UUID,
        _ body: VerifyFactorRequest,
        caller: Caller,
        ip: String
    ) async throws -> WireSession {
        try MFAAccess.requirePermanentUser(caller)
        let now = now()
        try await budget.admitRequest(caller, ip: ip, now: now)
        guard let challengeID = UUID(text: body.challengeID) else { throw Self.challengeNotFound }
        var authorized: SensitiveActionPermit?
        if let enrolling = caller.user.factors.first(where: { $0.id == factorID }), !enrolling.isVerified {
            authorized = try await sensitive.authorize(
                .verifyNewFactor,
                caller,
                evidence: .init(enrollingSession: enrolling.enrolledSessionID),
                ip: ip
            )
        }
        let permit = authorized
        let counted = try await storage.transaction { tx -> Counted in
            guard let factor = try await tx.factor(id: factorID, userID: caller.user.id), !factor.hasLapsed(at: now)
            else { return .failure(MFAAccess.factorNotFound) }
            guard SensitiveActionGuard.isEnrollingSession(factor, of: caller) else {
                return .failure(SensitiveActionGuard.enrolledElsewhere)
            }
            guard let challenge = try await tx.challenge(id: challengeID, factorID: factorID) else {
                return .failure(Self.challengeNotFound)
            }
            guard challenge.expiresAt >= now else {
                _ = try await tx.deleteChallenge(id: challengeID)
                return .failure(Self.challengeExpired)
            }
            guard challenge.ip == ip else { return .failure(Self.addressMismatch) }
            guard
                try await tx.countChallengeAttempt(id: challengeID, below: FactorChallengeRecord.maximumAttempts) != nil
            else {
                _ = try await tx.deleteChallenge(id: challengeID)
                return .failure(Self.challengeSpent)
            }
            return .factor(factor)
        }
        let factor: FactorRecord
        switch counted {
        case .failure(let error): throw error
        case .factor(let found): factor = found
        }
        let guess = try await budget.admitGuess(caller, now: now)
        guard let step = try sealing.open(factor).matchingStep(of: body.code, at: now) else {
            throw APIError(.unprocessableContent, .mfaVerificationFailed, "Invalid TOTP code entered")
        }
        await budget.refund(guess, now: now)
        let grant = try await storage.transaction { tx in
            try await tx.lockFactors(userID: caller.user.id)
            guard try await tx.deleteChallenge(id: challengeID) else { throw Self.challengeExpired }
            // Checked again under the lock: the factor may have been verified elsewhere, or
            // deleted by another factor's first verification, meanwhile.
            guard let current = try await tx.factor(id: factor.id, userID: caller.user.id),
                SensitiveActionGuard.isEnrollingSession(current, of: caller)
            else { throw MFAAccess.factorNotFound }
            guard try await tx.recordFactorStep(id: factor.id, step: step) else {
                throw APIError(
                    .unprocessableContent,
                    .mfaVerificationFailed,
                    "This code was used already: wait for the app's next code"
                )
            }
            if !current.isVerified {
                guard let user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
                let isFirst = !user.hasVerifiedFactor
                try await tx.markFactorVerified(id: factor.id, at: now)
                // The owner is told of the new way in (once: by the verification that made it).
                try await permit?.queueNotices("An authenticator app", in: tx, now: now)
                if isFirst {
                    // Factors someone else enrolled while the user had none go with the first.
                    try await tx.deleteUnverifiedFactors(userID: user.id, createdBefore: .distantFuture)
                }
            }
            guard let session = try await tx.session(id: caller.session.id) else { throw APIError.sessionNotFound }
            let amr =
                [AMREntry(method: .totp, timestamp: Int(now.timeIntervalSince1970))]
                + session.amr.filter { $0.method != .totp }
            guard let elevated = try await tx.elevateSession(id: session.id, factorID: factor.id, amr: amr, at: now)
            else { throw APIError.sessionNotFound }
            try await tx.deleteSessionsBelowAAL2(userID: caller.user.id, except: session.id)
            guard let user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            try await audit.record(.factorVerified, actor: user.id, ip: ip, detail: factor.id.key, in: tx)
            return SessionGrant(user: user, session: elevated, counter: elevated.counter)
        }
        permit?.sendQueuedNotices()
        return try await sessions.answer(grant, now: now)
    }

    static let challengeNotFound = APIError(.notFound, .mfaFactorNotFound, "Challenge not found for this factor")

    static let challengeExpired = APIError(
        .unprocessableContent,
        .mfaChallengeExpired,
        "The challenge has expired or was used: create a new challenge"
    )

    static let challengeSpent = APIError(
        .unprocessableContent,
        .mfaChallengeExpired,
        "Too many wrong codes for this challenge: create a new challenge"
    )

    static let addressMismatch = APIError(
        .unprocessableContent,
        .mfaIPAddressMismatch,
        "Challenge and verify IP addresses mismatch: create the challenge from this address"
    )
}
