/// A delivery failure that says whether trying again later may succeed. ``MailSender`` retries
/// a temporary failure (with backoff, for up to an hour) and gives up on a permanent one at
/// once; an error that does not conform to this protocol counts as temporary.
public protocol MailDeliveryError: Error {
    /// Whether the failure will not change by trying again (an SMTP `5xx` reply, a message that
    /// cannot be written).
    var isPermanent: Bool { get }
}
