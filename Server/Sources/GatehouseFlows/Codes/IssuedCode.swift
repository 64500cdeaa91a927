import GatehouseStorage

/// What ``CodeDelivery/issue(_:for:to:spacing:pkce:in:now:)`` issued, in one value: the stored
/// code and the mail queued with it in the same transaction. The flow keeps it until the commit,
/// then hands it to ``CodeDelivery/send(_:admitted:)``; nothing is read back or recovered from
/// the mail.
struct IssuedCode: Sendable {
    /// The stored code: its purpose, its hashes (the link's, which a sign-up binds its password
    /// to), its address and expiry.
    let record: CodeRecord
    /// The mail queued in the outbox with it.
    let mail: Mail

    /// What the code is for.
    var purpose: CodePurpose { record.purpose }
}
