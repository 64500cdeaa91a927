/// `POST /resend`: send the pending `signup` or `email_change` code again.
public struct ResendRequest: Codable, Sendable, Equatable {
    /// Which pending code: ``VerificationType/signup`` or ``VerificationType/emailChange``.
    public var type: VerificationType
    /// The address the code was sent to.
    public var email: String

    /// Creates the body that resends the pending code of `type` to `email`.
    public init(type: VerificationType, email: String) {
        self.type = type
        self.email = email
    }
}
