/// Delivers mail: ``SMTPMailer`` in production, ``LogMailer`` in development.
///
/// A test passes its own conformance to `buildServer(configuration:mailer:now:logger:)` and
/// reads codes from the bodies it captures, as a person reads them from an inbox:
///
/// ```swift
/// actor CapturingMailer: Mailer {
///     private(set) var sent: [Mail] = []
///     func send(_ mail: Mail) async throws { sent.append(mail) }
/// }
/// ```
public protocol Mailer: Sendable {
    /// Delivers `mail`, or throws when it could not be handed over.
    func send(_ mail: Mail) async throws
}
