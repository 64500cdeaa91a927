import Foundation
public import Logging

/// Delivers mail to the configured SMTP server.
public struct SMTPMailer: Mailer {
    let settings: SMTPSettings
    let logger: Logger

    public init(settings: SMTPSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    public func send(_ mail: Mail) async throws {
        let message = SMTPMessage(
            from: settings.sender,
            to: mail.to,
            subject: mail.subject,
            body: mail.body,
            date: Date()
        )
        try await SMTPConnection(settings: settings, logger: logger).send(message)
    }
}
