public import Foundation
import GatehouseServerSupport

/// The one-time code a queued mail carries: the mail goes out only while this code is still
/// the user's live code of its purpose (not replaced by a newer one, used or expired).
public struct MailedCode: Sendable, Equatable {
    public var userID: UUID
    public var purpose: CodePurpose
    /// The code's ``CodeRecord/linkHash`` (unique per code).
    public var linkHash: String

    public init(userID: UUID, purpose: CodePurpose, linkHash: String) {
        self.userID = userID
        self.purpose = purpose
        self.linkHash = linkHash
    }
}

/// A mail in the outbox (`mail_outbox`): written in the transaction of the change it tells
/// about, with its whole content (the body sealed under the server secret: it may hold a code),
/// and deleted once delivered or given up.
public struct OutboxMailRecord: Sendable, Equatable {
    /// The order of the outbox: mails to one address go out in this order.
    public var id: Int64
    /// The recipient's address (lowercased).
    public var recipient: String
    public var subject: String
    /// The body, sealed (``MailSealing``).
    public var sealedBody: String
    /// The code the mail carries; `nil` for a notice.
    public var code: MailedCode?
    /// Attempts so far, this claim's included.
    public var attempts: Int
    public var createdAt: Date

    public init(
        id: Int64,
        recipient: String,
        subject: String,
        sealedBody: String,
        code: MailedCode?,
        attempts: Int,
        createdAt: Date
    ) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.sealedBody = sealedBody
        self.code = code
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// How much mail waits in the outbox (the `/metrics` gauges, and tests waiting for delivery).
public struct MailOutboxDepth: Sendable, Equatable {
    /// Mails queued, being sent or waiting for a retry.
    public var count: Int
    /// When the oldest of them was queued.
    public var oldest: Date?
}

/// The mail outbox (part of ``StorageTransaction``).
public protocol MailOutboxWriter: Sendable {
    /// Queues a mail, due at `now`, in the transaction of the change it tells about.
    func enqueueMail(
        to recipient: String,
        subject: String,
        sealedBody: String,
        code: MailedCode?,
        at now: Date
    ) async throws
    /// Claims up to `limit` mails due by `now`, each the oldest one queued for its address (so a
    /// newer mail to an address waits for the older one): counts an attempt and moves each one's
    /// next attempt to `leaseUntil`, so that no other pass (or instance: rows locked by another
    /// transaction are skipped on PostgreSQL) takes it meanwhile.
    func claimMail(dueBy now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxMailRecord]
    /// Removes a mail that is delivered, given up or no longer to be sent.
    func deleteMail(id: Int64) async throws
    /// Puts a mail off until `next`, noting why (`nil`: a claim handed back, not a failure).
    func rescheduleMail(id: Int64, at next: Date, error: String?) async throws
}

/// The outbox's read (part of ``StorageReader``).
public protocol MailOutboxReader: Sendable {
    /// How much mail waits in the outbox.
    func mailOutboxDepth() async throws -> MailOutboxDepth
}
