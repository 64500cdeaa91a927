public import Logging

/// One message to one address.
public struct Mail: Sendable, Equatable {
    public var to: String
    public var subject: String
    public var body: String
    /// The one-time code, when the message carries one (for tests and the log mailer).
    public var code: String?

    public init(to: String, subject: String, body: String, code: String? = nil) {
        self.to = to
        self.subject = subject
        self.body = body
        self.code = code
    }
}

/// Delivers mail.
public protocol Mailer: Sendable {
    func send(_ mail: Mail) async throws
}

/// The development default when no SMTP host is configured: every message is written to the
/// server log at `notice` level. This is the one place a code may appear in a log, and only
/// because there is nowhere else for it to go; configure `GATEHOUSE_SMTP_HOST` in production.
public struct LogMailer: Mailer {
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func send(_ mail: Mail) async throws {
        logger.notice(
            "Mail (no SMTP configured)",
            metadata: [
                "mail.to": .string(mail.to), "mail.subject": .string(mail.subject),
                "mail.code": .string(mail.code ?? ""),
            ]
        )
    }
}

/// A mailer that keeps messages in memory, for tests.
public actor MemoryMailer: Mailer {
    public private(set) var sent: [Mail] = []

    public init() {}

    public func send(_ mail: Mail) async throws {
        sent.append(mail)
    }

    /// The newest code sent to an address.
    public func lastCode(to address: String) -> String? {
        sent.last { $0.to == address.lowercased() }?.code
    }
}
