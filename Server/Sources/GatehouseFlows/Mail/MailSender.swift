import Foundation
import GatehouseCore
package import GatehouseServerSupport
import GatehouseStorage
import Logging
import ServiceLifecycle

/// Delivers the mail outbox (``MailOutbox``, `mail_outbox`): a service of the application, off
/// the request path.
///
/// Each pass claims up to ``MailDeliverySettings/batchSize`` due mails, each the oldest one
/// queued for its address (so mails to one address go out in the order they were queued),
/// moving their next attempt a lease ahead: instances on PostgreSQL skip each other's rows,
/// SQLite's claim is one `UPDATE … RETURNING` in a `BEGIN IMMEDIATE` transaction. In the same
/// transaction a mail whose code was replaced, used or expired meanwhile is dropped unsent. The
/// claimed mails are sent at once (different addresses), outside any transaction, then:
///
/// - sent: the row goes;
/// - a temporary failure (an SMTP `4xx`, a refused or lost connection, a timeout): the row waits
///   (``MailDeliverySettings/retryDelay(afterAttempts:)``: 2 s doubling to 5 minutes) and is
///   tried again until an hour after it was queued, then given up (`mail_abandoned` audited);
/// - a permanent failure (an SMTP `5xx`): given up at once (`mail_rejected` audited).
///
/// The sending budgets are not the sender's: a code's mail was admitted on the request path
/// before the code was issued (``MailBudget``), and the owner's notices are never held back.
///
/// A pass runs when a request queued mail (``MailOutbox/wake()``) and every
/// ``MailDeliverySettings/pollInterval`` (retries that came due, other instances' mail). After
/// a crash the next start finds the rows: a mail whose attempt was under way waits for its lease.
///
/// At most one copy goes out per row, except when a crash (or a lost database) falls between
/// SMTP's final `250` and the row's deletion: the mail is sent again after its lease. SMTP has no
/// way to ask a relay whether it already took a message, so this is the one duplicate left.
///
/// At a graceful shutdown the sender keeps delivering what is due for up to
/// ``MailDeliverySettings/drainTimeout`` (10 s), then cancels what is in flight (its rows are
/// handed back, due at once); the rest stays queued for the next start.
package struct MailSender: Service {
    let storage: any AuthStorage
    let mailer: any Mailer
    let sealing: MailSealing
    let audit: AuditLog
    let settings: MailDeliverySettings
    package let wakeup: Wakeup
    let logger: Logger
    let now: @Sendable () -> Date

    /// What one pass did.
    struct Pass: Sendable, Equatable {
        var sent = 0
        var retried = 0
        var givenUp = 0
        var dropped = 0

        /// Whether the pass claimed any mail (another may be due behind it).
        var claimedAny: Bool { sent + retried + givenUp + dropped > 0 }
    }

    /// Delivers until the application shuts down, then drains for up to the drain timeout.
    func run() async throws {
        await withShutdownGrace(settings.drainTimeout) {
            await wakeup.loop(every: settings.pollInterval) { await deliverDue() }
            // The drain: what is due now, until the grace runs out.
            await deliverDue()
        }
    }

    /// Passes until one finds nothing due (or the task is cancelled); a failed pass is logged
    /// and left to the next wake-up.
    package func deliverDue() async {
        while !Task.isCancelled {
            do {
                guard try await deliver().claimedAny else { return }
            } catch {
                logger.warning("Mail outbox pass failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                return
            }
        }
    }

    /// One pass over the mail due now.
    @discardableResult
    func deliver() async throws -> Pass {
        let start = now()
        let settings = settings
        let (claimed, superseded) = try await storage.transaction { tx in
            var live: [OutboxMailRecord] = []
            var superseded = 0
            for mail in try await tx.claimMail(
                dueBy: start,
                leaseUntil: start.addingTimeInterval(settings.lease),
                limit: settings.batchSize
            ) {
                if let code = mail.code {
                    let current = try await tx.code(userID: code.userID, purpose: code.purpose)
                    guard let current, current.linkHash == code.linkHash, current.expiresAt > start else {
                        try await tx.deleteMail(id: mail.id)
                        superseded += 1
                        continue
                    }
                }
                live.append(mail)
            }
            return (live, superseded)
        }
        for _ in 0..<superseded { AuthMetrics.mail(.superseded) }
        var pass = Pass(dropped: superseded)
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for mail in claimed { group.addTask { await attempt(mail) } }
            var outcomes: [Outcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        for outcome in outcomes {
            switch outcome {
            case .sent: pass.sent += 1
            case .retried, .handedBack: pass.retried += 1
            case .givenUp: pass.givenUp += 1
            }
        }
        return pass
    }

    /// What became of one claimed mail.
    private enum Outcome: Sendable {
        case sent, retried, handedBack, givenUp
    }

    /// Sends one claimed mail and records the outcome.
    private func attempt(_ row: OutboxMailRecord) async -> Outcome {
        let body: String
        do {
            body = try sealing.open(row.sealedBody, to: row.recipient)
        } catch {
            // Sealed under another server secret: no retry can open it.
            return await settle(row, .givenUp(audit: .mailRejected, why: "cannot be opened with this server secret"))
        }
        let mail = Mail(to: row.recipient, subject: row.subject, body: body)
        let started = ContinuousClock.now
        let failure = await send(mail)
        let duration = started.duration(to: .now)
        guard let failure else {
            AuthMetrics.mail(.sent, duration: duration)
            return await settle(row, .delete)
        }
        if failure is CancellationError {
            return await settle(row, .handBack(at: now()))
        }
        let why = (failure as? SMTPError)?.summary ?? String(describing: type(of: failure))
        if (failure as? any MailDeliveryError)?.isPermanent == true {
            AuthMetrics.mail(.rejected, duration: duration)
            logger.error(
                "Mail rejected; given up",
                metadata: ["mail.subject": .string(mail.subject), "mail.failure": .string(why)]
            )
            return await settle(row, .givenUp(audit: .mailRejected, why: why))
        }
        let retryUntil = row.createdAt.addingTimeInterval(settings.retryFor)
        let next = now().addingTimeInterval(settings.retryDelay(afterAttempts: row.attempts))
        guard next <= retryUntil else {
            AuthMetrics.mail(.abandoned, duration: duration)
            logger.error(
                "Mail still failing after the retry window; given up",
                metadata: [
                    "mail.subject": .string(mail.subject), "mail.attempt": "\(row.attempts)",
                    "mail.failure": .string(why),
                ]
            )
            return await settle(row, .givenUp(audit: .mailAbandoned, why: why))
        }
        AuthMetrics.mail(.retried, duration: duration)
        // Logged once the retry is recorded (a process killed after the line finds the row due
        // at its retry time, not held by the lease of the attempt).
        let outcome = await settle(row, .retry(at: next, why: why))
        logger.warning(
            "Mail delivery failed; will retry",
            metadata: [
                "mail.subject": .string(mail.subject), "mail.attempt": "\(row.attempts)", "mail.failure": .string(why),
            ]
        )
        return outcome
    }

    /// The mailer's failure, or `nil` when it took the mail; one cancelled from outside (the
    /// end of the drain) comes back as `CancellationError`. Every wait of SMTP's is bounded
    /// (connection and reply timeouts), well within the lease.
    private func send(_ mail: Mail) async -> (any Error)? {
        do {
            try await mailer.send(mail)
            return nil
        } catch {
            return Task.isCancelled ? CancellationError() : error
        }
    }

    /// How a claimed row ends.
    private enum Settlement: Sendable {
        /// Delivered: the row goes.
        case delete
        /// Given up: the row goes, audited.
        case givenUp(audit: AuditAction, why: String)
        /// A temporary failure: due again at `at`.
        case retry(at: Date, why: String)
        /// Not attempted after all (cancelled before an answer): due again at `at`, the attempt
        /// not counted.
        case handBack(at: Date)
    }

    /// Writes how `row` ended. Runs even when the sender is being cancelled (the end of the
    /// drain), so that a sent mail's row goes and a cancelled one is handed back: in an
    /// unstructured task, awaited at once, because a PostgreSQL lease refuses a cancelled task.
    private func settle(_ row: OutboxMailRecord, _ settlement: Settlement) async -> Outcome {
        let (storage, audit, logger) = (storage, audit, logger)
        let write = Task {
            try await storage.transaction { tx in
                switch settlement {
                case .delete:
                    try await tx.deleteMail(id: row.id)
                case .givenUp(let action, let why):
                    try await tx.deleteMail(id: row.id)
                    try await audit.record(
                        action,
                        actor: row.code?.userID,
                        ip: nil,
                        detail: "\(row.subject), attempt \(row.attempts): \(why)",
                        in: tx
                    )
                case .retry(let next, let why):
                    try await tx.rescheduleMail(id: row.id, at: next, error: why)
                case .handBack(let next):
                    try await tx.rescheduleMail(id: row.id, at: next, error: nil)
                }
            }
        }
        do {
            try await write.value
        } catch {
            // The row keeps its lease and is tried again after it: a sent mail may then go twice.
            logger.error("Mail outcome not recorded", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
        switch settlement {
        case .delete: return .sent
        case .givenUp: return .givenUp
        case .retry: return .retried
        case .handBack: return .handedBack
        }
    }
}
