import Foundation
import GatehouseCore
import HTTPTypes

/// Issues a one-time code, stores it and mails it: the one way a code reaches a person.
///
/// Issuing happens inside the caller's transaction, and so does queueing its mail in the
/// outbox (``MailOutbox``): the mail exists exactly when the code committed. Once the
/// transaction has committed, the caller passes the mail to ``send(_:)``, which wakes the
/// sender (a transaction body may run twice; waking twice is harmless, counting is not).
///
/// ```swift
/// let mail = try await storage.transaction { tx in
///     try await delivery.issue(.recovery, for: user.id, to: email, spacing: .skip, in: tx, now: now)
/// }
/// delivery.send(mail)
/// ```
struct CodeDelivery: Sendable {
    /// What happens when a code of the same purpose went to the user less than the send
    /// spacing (`GATEHOUSE_SMTP_MAX_FREQUENCY`) ago.
    enum Spacing: Sendable {
        /// 429 `over_email_send_rate_limit` with the seconds to wait (`/otp`, `/reauthenticate`).
        case refuse
        /// No new code and no mail, with the same answer (`/recover`, `/resend`: no enumeration).
        case skip
        /// Issue anyway (a new account, an invitation, an address change).
        case ignore
    }

    let codes: OneTimeCodes
    let template: CodeMailTemplate
    let outbox: MailOutbox
    let limiter: any RateLimiter
    /// Seconds a code stays valid.
    let lifetime: TimeInterval
    /// Seconds between two codes of one purpose to one user.
    let spacing: TimeInterval
    /// Send requests per client address per 5 minutes.
    let clientBudget: Int
    /// Mails per hour for the whole server.
    let serverBudget: Int
    /// Mails per hour to one address, of every kind.
    let recipientBudget: Int
    let now: @Sendable () -> Date

    /// Counts one send request against the client's budget, and refuses it while the
    /// server's hourly mail budget is spent; throws 429 when either holds. The server budget
    /// itself is charged only by a mail that goes out (``send(_:)``), so requests for unknown
    /// addresses cannot spend it.
    func spendBudget(client: String, now: Date) async throws {
        try await limiter.hit(.otp, key: client, limit: clientBudget, window: 300, now: now)
        if let retry = try await limiter.isLimited(
            .emailSent,
            key: "server",
            limit: serverBudget,
            window: 3600,
            now: now
        ) {
            throw Self.overSendLimit(retry)
        }
    }

    /// Spaces requests for an address no account has as ``Spacing/refuse`` spaces a known
    /// one's, so the answer does not tell them apart.
    func spaceUnknownRecipient(_ email: String, purpose: CodePurpose, now: Date) async throws {
        do {
            try await limiter.hit(
                .unknownRecipient,
                key: "\(purpose.rawValue)|\(email)",
                limit: 1,
                window: max(1, spacing),
                now: now
            )
        } catch let error as APIError where error.retryAfter != nil {
            throw Self.overSendLimit(error.retryAfter ?? Int(spacing))
        }
    }

    /// 429 `over_email_send_rate_limit`, wait `retry` seconds.
    static func overSendLimit(_ retry: Int) -> APIError {
        APIError(
            .tooManyRequests,
            .overEmailSendRateLimit,
            "For security purposes, you can only request this after \(retry) seconds.",
            retryAfter: retry
        )
    }

    /// Issues and stores a code for `purpose`, replacing the user's previous one.
    ///
    /// - Returns: The mail to ``send(_:)`` after the commit, or `nil` when ``Spacing/skip`` held it back.
    /// - Throws: 429 `over_email_send_rate_limit` under ``Spacing/refuse``.
    func issue(
        _ purpose: CodePurpose,
        for userID: UUID,
        to email: String,
        spacing rule: Spacing,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Mail? {
        if rule != .ignore, let previous = try await tx.code(userID: userID, purpose: purpose) {
            let elapsed = now.timeIntervalSince(previous.createdAt)
            if elapsed < spacing {
                guard rule == .refuse else { return nil }
                throw Self.overSendLimit(Int((spacing - elapsed).rounded(.up)))
            }
        }
        let issued = try await issueUnmailed(purpose, for: userID, to: email, in: tx, now: now)
        let mail = template.mail(to: email, purpose: purpose, code: issued.code, link: issued.linkToken)
        let code = MailedCode(userID: userID, purpose: purpose, linkHash: issued.record.linkHash)
        try await outbox.enqueue(mail, code: code, in: tx, now: now)
        return mail
    }

    /// Queues a notice (``AccountNotice``) in `tx`; pass it to ``send(_:)`` after the commit.
    func notify(_ notice: Mail, in tx: any StorageTransaction, now: Date) async throws -> Mail {
        try await outbox.enqueue(notice, in: tx, now: now)
        return notice
    }

    /// Issues and stores a code without composing mail, for an admin who delivers it
    /// (`POST /admin/generate_link`).
    func issueUnmailed(
        _ purpose: CodePurpose,
        for userID: UUID,
        to email: String,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> OneTimeCodes.Issued {
        let issued = codes.issue(userID: userID, purpose: purpose, email: email, now: now, lifetime: lifetime)
        try await tx.upsertCode(issued.record)
        return issued
    }

    /// Wakes the outbox's sender for the mail of a committed issue or notice; `nil` (held back
    /// by ``Spacing/skip``) does nothing. The sender charges each mail to its recipient's hourly
    /// budget and then to the server's (``chargeBudgets(_:)``) before its first attempt; a mail
    /// over either is not sent (and logged without its address).
    func send(_ mail: Mail?) {
        guard let mail else { return }
        if let purpose = CodePurpose.allCases.first(where: { CodeMailTemplate.subject(for: $0) == mail.subject }) {
            AuthMetrics.codeSent(purpose)
        }
        outbox.wake()
    }

    /// Charges `mail` to its recipient's hourly budget and to the server's; throws when over.
    func chargeBudgets(_ mail: Mail) async throws {
        try await limiter.hit(.emailRecipient, key: mail.to, limit: recipientBudget, window: 3600, now: now())
        try await limiter.hit(.emailSent, key: "server", limit: serverBudget, window: 3600, now: now())
    }
}
