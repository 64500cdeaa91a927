import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// Issues a one-time code, stores it and mails it: the one way a code reaches a person.
///
/// A code is mailed only with a ``MailBudget/Admission``, decided on the request path before the
/// transaction (``admit(_:recipient:kind:client:now:)``); over a budget the request is refused and
/// the previous code stays valid. Issuing happens inside the caller's transaction, and so does
/// queueing its mail in the outbox (``MailOutbox``): the mail exists exactly when the code
/// committed. Once the transaction has committed, the caller passes the mail to
/// ``send(_:admitted:)``, which wakes the sender (a transaction body may run twice; waking twice
/// is harmless, counting is not).
///
/// ```swift
/// let admitted = try await delivery.admit(email, recipient: .confirmed, kind: .other, client: ip, now: now)
/// let mail = try await storage.transaction { tx in
///     try await delivery.issue(.recovery, for: user.id, to: admitted, spacing: .skip, in: tx, now: now)
/// }
/// await delivery.send(mail, admitted: admitted)
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
    /// Runs the transactions of codes issued off the request path (``issueLater(admitted:_:)``).
    let deferred: DeferredIssues
    let rateLimits: RateLimits
    let budget: MailBudget
    /// Seconds a code stays valid.
    let lifetime: TimeInterval
    /// Seconds between two codes of one purpose to one user.
    let spacing: TimeInterval
    let now: @Sendable () -> Date

    /// Counts one send request against the client's 5-minute window (429 when full).
    func spendBudget(client: String, now: Date) async throws {
        try await rateLimits.hit(.otp, key: client, now: now)
    }

    /// The mail budgets' decision for a code to `address` (``MailBudget``).
    func admit(
        _ address: String,
        recipient: MailBudget.Recipient,
        kind: MailBudget.Kind = .other,
        client: String,
        now: Date
    ) async throws -> MailBudget.Admission {
        try await budget.admit(address, recipient: recipient, kind: kind, client: client, now: now)
    }

    /// Spaces requests for an address no account has as ``Spacing/refuse`` spaces a known
    /// one's, so the answer does not tell them apart.
    func spaceUnknownRecipient(_ email: String, purpose: CodePurpose, now: Date) async throws {
        do {
            try await rateLimits.hit(.unknownRecipient, key: "\(purpose.rawValue)|\(email)", now: now)
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

    /// Issues and stores a code for `purpose` to the admitted address, replacing the user's
    /// previous one.
    ///
    /// - Returns: The code and its queued mail, to ``send(_:admitted:)`` after the commit, or
    ///   `nil` when ``Spacing/skip`` held it back.
    /// - Throws: 429 `over_email_send_rate_limit` under ``Spacing/refuse``.
    func issue(
        _ purpose: CodePurpose,
        for userID: UUID,
        to admitted: MailBudget.Admission,
        spacing rule: Spacing,
        pkce: EmailPKCE? = nil,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> IssuedCode? {
        if rule != .ignore, let previous = try await tx.code(userID: userID, purpose: purpose) {
            let elapsed = now.timeIntervalSince(previous.createdAt)
            if elapsed < spacing {
                guard rule == .refuse else { return nil }
                throw Self.overSendLimit(Int((spacing - elapsed).rounded(.up)))
            }
        }
        let email = admitted.address
        let issued = try await issueUnmailed(purpose, for: userID, to: email, pkce: pkce, in: tx, now: now)
        let mail = template.mail(
            to: email,
            purpose: purpose,
            code: issued.code,
            link: issued.linkToken,
            redirectTo: pkce?.redirectTo
        )
        let code = MailedCode(userID: userID, purpose: purpose, linkHash: issued.record.linkHash)
        try await outbox.enqueue(mail, code: code, in: tx, now: now)
        return IssuedCode(record: issued.record, mail: mail)
    }

    /// Queues a notice (``AccountNotice``) in `tx`; pass it to ``send(_:)`` after the commit.
    func notify(_ notice: Mail, in tx: any StorageTransaction, now: Date) async throws -> Mail {
        try await outbox.enqueue(notice, in: tx, now: now)
        return notice
    }

    /// Issues and stores a code without composing mail, for an admin who delivers it
    /// (`POST /admin/generate_link`). With `pkce`, the code's link (`pkce_…`) gets a flow that
    /// waits for it: `GET /verify` then answers with an `auth_code` for the verifier's holder.
    func issueUnmailed(
        _ purpose: CodePurpose,
        for userID: UUID,
        to email: String,
        pkce: EmailPKCE? = nil,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> OneTimeCodes.Issued {
        let issued = codes.issue(
            userID: userID,
            purpose: purpose,
            email: email,
            now: now,
            lifetime: lifetime,
            linkPrefix: pkce == nil ? "" : EmailPKCE.linkPrefix
        )
        try await tx.upsertCode(issued.record)
        if let pkce {
            try await tx.insertFlowState(
                FlowStateRecord(
                    linkHash: issued.record.linkHash,
                    provider: .email,
                    authenticationMethod: purpose.signInMethod,
                    redirectTo: pkce.redirectTo,
                    codeChallenge: pkce.challenge.challenge,
                    codeChallengeMethod: pkce.challenge.method.rawValue,
                    userID: userID,
                    createdAt: now,
                    expiresAt: issued.record.expiresAt
                )
            )
        }
        return issued
    }

    /// Wakes the sender for the mail of a committed issue and counts the code sent; `nil`
    /// (nothing issued: a code held back by ``Spacing/skip``, a failed transaction) gives the
    /// admission's server budget back.
    func send(_ issued: IssuedCode?, admitted: MailBudget.Admission) async {
        guard let issued else { return await budget.release(admitted, now: now()) }
        AuthMetrics.codeSent(issued.purpose)
        outbox.wake()
    }

    /// Issues a code off the request path, in a job of ``DeferredIssues``: `issue` runs the
    /// transaction that writes the code and queues its mail, which is then sent (or the
    /// admission given back).
    func issueLater(admitted: MailBudget.Admission, _ issue: @escaping @Sendable () async throws -> IssuedCode?) {
        deferred.submit { try await issueNow(admitted: admitted, issue) }
    }

    /// Issues a code on the request path: `issue` runs the transaction that writes the code and
    /// queues its mail, which is then sent; the admission is given back when nothing was issued
    /// or the transaction failed (its error is rethrown).
    func issueNow(admitted: MailBudget.Admission, _ issue: () async throws -> IssuedCode?) async throws {
        let issued: IssuedCode?
        do {
            issued = try await issue()
        } catch {
            await send(nil, admitted: admitted)
            throw error
        }
        await send(issued, admitted: admitted)
    }

    /// Wakes the outbox's sender for mail queued in a transaction that has committed.
    func wakeSender() {
        outbox.wake()
    }

    /// Wakes the outbox's sender for a committed notice (``AccountNotice``, which the budgets do
    /// not hold back); `nil` does nothing.
    func send(_ notice: Mail?) {
        guard notice != nil else { return }
        outbox.wake()
    }
}
