/// One plain-text message to one address.
public struct Mail: Sendable, Equatable {
    /// The recipient's address.
    public var to: String
    /// The subject line (one line; SMTP encodes it).
    public var subject: String
    /// The plain-text body.
    public var body: String

    /// A message to `to`.
    public init(to: String, subject: String, body: String) {
        self.to = to
        self.subject = subject
        self.body = body
    }
}
