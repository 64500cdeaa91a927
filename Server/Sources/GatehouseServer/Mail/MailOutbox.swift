import Logging

/// Sends mail off the request path, so that answers take the same time whether or not a
/// message goes out; failures are logged by subject, never with the body (it holds the code).
struct MailOutbox: Sendable {
    let mailer: any Mailer
    let logger: Logger

    /// Runs `compose` (the transaction that issues a code) in a detached task and sends the mail
    /// it returns, if any: the request answers before the code is written, after the same work
    /// whether or not there is anyone to mail (`/recover`: `security.md` EN-3). A failure is
    /// logged by what failed, never with the address.
    func composeLater(_ compose: @escaping @Sendable () async throws -> Void) {
        let logger = self.logger
        Task.detached {
            do {
                try await compose()
            } catch {
                AuthMetrics.mail("failed")
                logger.error("Mail not composed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
        }
    }

    /// Hands `mail` to the mailer in a detached task (its budgets were decided on the request
    /// path: ``MailBudget``). Call it after the transaction that stored the mail's code has
    /// committed, never inside one (a body may run twice).
    func sendLater(_ mail: Mail) {
        let mailer = self.mailer
        let logger = self.logger
        Task.detached {
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
