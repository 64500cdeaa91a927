import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Queues mail in the transaction of the change it tells about (the outbox, `mail_outbox`), so
/// that a mail exists exactly when its code or change committed, and wakes the sender
/// (``MailSender``) once that transaction has committed. Answers therefore take the same time
/// whether or not a mail goes out, and a restart, a crash or an SMTP outage loses no mail.
///
/// ```swift
/// try await storage.transaction { tx in
///     try await outbox.enqueue(AccountNotice.mail(.passwordChanged, to: email), in: tx, now: now)
/// }
/// outbox.wake()
/// ```
struct MailOutbox: Sendable {
    let sealing: MailSealing
    let wakeup: Wakeup

    /// Queues `mail`, carrying `code` when it is a code's mail, in `tx`. The mail keeps its
    /// whole content: a later code does not change it (it is dropped instead, see ``MailSender``).
    func enqueue(_ mail: Mail, code: MailedCode? = nil, in tx: any StorageTransaction, now: Date) async throws {
        try await tx.enqueueMail(
            to: mail.to,
            subject: mail.subject,
            sealedBody: try sealing.seal(mail.body, to: mail.to),
            code: code,
            at: now
        )
    }

    /// Wakes the sender; call it after the transaction that queued mail has committed (before,
    /// the sender would not see the mail yet and would find it at its next poll).
    func wake() {
        wakeup.signal()
    }
}
