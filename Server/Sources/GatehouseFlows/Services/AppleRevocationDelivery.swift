import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Logging
import ServiceLifecycle

/// Revokes at Apple the refresh tokens of deleted users and unlinked Apple identities, from the
/// outbox (`apple_revocations`) their deletion wrote in its own transaction: a service of the
/// application, off the request path, so that Apple being slow or down never blocks or undoes
/// a deletion.
///
/// A deletion starts a pass at once (``deliverSoon()``); every ``interval`` a pass takes what is
/// due. A pass claims up to ``batchSize`` rows by moving their next attempt a ``lease`` ahead
/// (instances on PostgreSQL skip each other's rows; one that dies mid-call leaves its rows to
/// the next pass after the lease), calls Apple outside any transaction, then deletes the row on
/// success or puts it off with a growing delay (30 s doubling to 6 h). After
/// ``maximumAttempts`` it gives up. Every outcome is in the audit log
/// (`apple_token_revoked`, `apple_token_revocation_failed`, `apple_token_revocation_abandoned`).
package struct AppleRevocationDelivery: Service {
    let storage: any AuthStorage
    let client: AppleAccountClient
    let audit: AuditLog
    /// Time between passes (`GATEHOUSE_APPLE_REVOCATION_SECONDS`).
    let interval: Duration
    /// Starts a pass at once (``deliverSoon()``).
    let wakeup = Wakeup()
    let logger: Logger
    let now: @Sendable () -> Date

    /// Rows one pass claims at most.
    static let batchSize = 20
    /// How long a claimed row is left to its pass (well over a call's timeout).
    static let lease: TimeInterval = 600
    /// Attempts before giving up (about a week of retries with the delays below).
    static let maximumAttempts = 40
    /// The first delay after a failure, doubled per attempt up to ``longestDelay``.
    static let firstDelay: TimeInterval = 30
    static let longestDelay: TimeInterval = 6 * 3600

    /// What one pass did.
    package struct Pass: Sendable, Equatable {
        package var revoked = 0
        var failed = 0
        var abandoned = 0
    }

    /// The delay after the `attempts`-th failed attempt.
    static func delay(afterAttempts attempts: Int) -> TimeInterval {
        min(longestDelay, firstDelay * pow(2, Double(max(0, min(attempts - 1, 20)))))
    }

    /// One pass over the revocations due now.
    @discardableResult
    package func deliver() async throws -> Pass {
        let start = now()
        let claimed = try await storage.transaction { tx in
            try await tx.claimAppleRevocations(
                dueBy: start,
                leaseUntil: start.addingTimeInterval(Self.lease),
                limit: Self.batchSize
            )
        }
        var pass = Pass()
        for revocation in claimed {
            let outcome: AppleTokenRevoker.Outcome
            do {
                let token = try client.sealing.open(revocation.sealedToken, identityID: revocation.identityID)
                outcome = await client.revoker.revoke(token, clientID: revocation.clientID, now: now())
            } catch {
                // Sealed under another server secret: no retry can open it.
                outcome = .failed("cannot be opened with this server secret")
                try await finish(revocation, outcome: outcome, abandon: true)
                pass.abandoned += 1
                continue
            }
            let abandon = outcome != .revoked && revocation.attempts >= Self.maximumAttempts
            try await finish(revocation, outcome: outcome, abandon: abandon)
            switch outcome {
            case .revoked: pass.revoked += 1
            case .failed: if abandon { pass.abandoned += 1 } else { pass.failed += 1 }
            }
        }
        return pass
    }

    /// Records the outcome of one attempt: the row goes (revoked, abandoned) or waits.
    private func finish(
        _ revocation: AppleRevocationRecord,
        outcome: AppleTokenRevoker.Outcome,
        abandon: Bool
    )
        async throws
    {
        let next = now().addingTimeInterval(Self.delay(afterAttempts: revocation.attempts))
        try await storage.transaction { tx in
            switch outcome {
            case .revoked:
                try await tx.deleteAppleRevocation(identityID: revocation.identityID)
                try await audit.record(
                    .appleTokenRevoked,
                    actor: revocation.userID,
                    ip: nil,
                    detail: "\(revocation.reason), attempt \(revocation.attempts)",
                    in: tx
                )
            case .failed(let why) where abandon:
                try await tx.deleteAppleRevocation(identityID: revocation.identityID)
                try await audit.record(
                    .appleTokenRevocationAbandoned,
                    actor: revocation.userID,
                    ip: nil,
                    detail: "\(revocation.reason), attempt \(revocation.attempts): \(why)",
                    in: tx
                )
            case .failed(let why):
                try await tx.rescheduleAppleRevocation(identityID: revocation.identityID, at: next, error: why)
                try await audit.record(
                    .appleTokenRevocationFailed,
                    actor: revocation.userID,
                    ip: nil,
                    detail: "\(revocation.reason), attempt \(revocation.attempts): \(why)",
                    in: tx
                )
            }
        }
        if case .failed(let why) = outcome {
            logger.warning(
                abandon ? "Apple token revocation abandoned" : "Apple token revocation failed; will retry",
                metadata: ["apple.attempt": "\(revocation.attempts)", "apple.failure": "\(why)"]
            )
        }
    }

    /// Starts a pass as soon as the one under way (if any) ends, off the caller's path (after a
    /// deletion committed).
    func deliverSoon() {
        wakeup.signal()
    }

    /// How long a pass under way at shutdown may go on before it is cancelled (its claimed
    /// rows are tried again after their lease; a revocation Apple got twice is harmless).
    static let shutdownGrace: Duration = .seconds(10)

    /// Delivers at each ``deliverSoon()`` and every ``interval`` until the application shuts
    /// down; a pass under way then has ``shutdownGrace`` to finish, and what is left waits in
    /// the outbox for the next start.
    func run() async throws {
        await withShutdownGrace(Self.shutdownGrace) {
            await wakeup.loop(every: interval) {
                do {
                    try await deliver()
                } catch {
                    logger.warning("Apple token revocation pass failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
