/// `POST /resend`: send the pending `signup` or `email_change` code again.
public struct ResendRequest: Codable, Sendable, Equatable {
    public var type: VerificationType
    public var email: String

    public init(type: VerificationType, email: String) {
        self.type = type
        self.email = email
    }
}
