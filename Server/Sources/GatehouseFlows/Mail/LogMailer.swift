import GatehouseStorage
public import Logging

/// The development default when no SMTP host is configured: every message is written to the
/// server log at `notice` level, with the code of a code mail (``CodeMailTemplate/code(in:)``)
/// as `mail.code`. This is the one place a code may appear in a log, and only because there is
/// nowhere else for it to go; configure `GATEHOUSE_SMTP_HOST` in production.
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
                "mail.code": .string(CodeMailTemplate.code(in: mail.body) ?? ""),
            ]
        )
    }
}
