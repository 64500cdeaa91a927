import GatehouseStorage

/// How the mail outbox is delivered (``MailSender``): retries, the lease of a claimed mail and
/// the drain at shutdown. Not read from the environment; tests shorten the times.
public struct MailDeliverySettings: Sendable, Equatable {
    /// The wait, in server-clock seconds, after the first temporary failure; doubled after each
    /// further one, up to ``longestRetryDelay``.
    public var firstRetryDelay: Double = 2
    /// The longest wait between two attempts, in server-clock seconds.
    public var longestRetryDelay: Double = 300
    /// How long after it was queued a mail is still retried (server-clock seconds; one hour).
    /// A temporary failure after that gives the mail up, with an audit entry.
    public var retryFor: Double = 3600
    /// How long a claimed mail is left to its sender before another pass (or instance) may take
    /// it again (server-clock seconds): well over the longest SMTP session (a 10-second connect
    /// and a reply timeout per command).
    public var lease: Double = 600
    /// How often the sender looks for due mail without being woken (other instances' mail,
    /// retries that came due).
    public var pollInterval: Duration = .seconds(1)
    /// How long the sender keeps delivering after a graceful shutdown began; what is left
    /// stays queued for the next start.
    public var drainTimeout: Duration = .seconds(10)
    /// Mails claimed, and sent at once, per pass (each to a different address).
    public var batchSize = 8

    /// The defaults.
    public init() {}

    /// The wait after the `attempts`-th failed attempt.
    func retryDelay(afterAttempts attempts: Int) -> Double {
        var delay = firstRetryDelay
        for _ in 1..<max(1, min(attempts, 30)) { delay *= 2 }
        return min(longestRetryDelay, delay)
    }
}
