import GatehouseStorage

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
    /// The server's reply code, when a reply was the failure.
    public var replyCode: Int?

    public var description: String { "SMTP \(kind.rawValue): \(detail)" }
}

extension SMTPError: MailDeliveryError {
    /// A `5xx` reply (RFC 5321 4.2.1: a permanent negative completion) or a message that cannot
    /// be written; a `4xx` reply, a refused or lost connection and a timeout are temporary.
    public var isPermanent: Bool {
        switch kind {
        case .invalidMessage: true
        case .unexpectedReply, .authenticationFailed: (replyCode ?? 0) >= 500
        case .connectionFailed, .startTLSUnavailable: false
        }
    }

    /// The failure without any part of a command (which may name an address): its kind and reply code.
    var summary: String {
        replyCode.map { "SMTP \(kind.rawValue) \($0)" } ?? "SMTP \(kind.rawValue)"
    }
}
