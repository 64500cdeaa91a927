/// Why an SMTP delivery failed.
public struct SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case connectionFailed = "connection_failed"
        case unexpectedReply = "unexpected_reply"
        case startTLSUnavailable = "starttls_unavailable"
        case authenticationFailed = "authentication_failed"
        case invalidMessage = "invalid_message"
    }

    public var kind: Kind
    /// What happened, without the message body or credentials.
    public var detail: String

    public var description: String { "SMTP \(kind.rawValue): \(detail)" }
}
