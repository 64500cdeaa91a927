import Logging

/// Sends mail off the request path, so that answers take the same time whether or not a
/// message goes out; failures are logged by subject, never with the body (it holds the code).
struct MailOutbox: Sendable {
    let mailer: any Mailer
    let logger: Logger

    /// Hands `mail` to the mailer in a detached task, once `admit` (the mail budgets) has
    /// passed. Call it after the transaction that stored the mail's code has committed, never
    /// inside one (a body may run twice).
    func sendLater(_ mail: Mail, admit: @escaping @Sendable () async throws -> Void = {}) {
        let mailer = self.mailer
        let logger = self.logger
        Task.detached {
            do {
                try await admit()
            } catch {
                AuthMetrics.mail("over_budget")
                logger.warning("Mail not sent: over budget", metadata: ["mail.subject": .string(mail.subject)])
                return
            }
            let start = ContinuousClock.now
            do {
                try await mailer.send(mail)
                AuthMetrics.mail("sent", duration: start.duration(to: .now))
            } catch {
                AuthMetrics.mail("failed", duration: start.duration(to: .now))
                logger.error("Mail delivery failed", metadata: ["mail.subject": .string(mail.subject)])
            }
        }
    }
}
