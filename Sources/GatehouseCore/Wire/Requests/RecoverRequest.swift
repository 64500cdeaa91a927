/// `POST /recover`: send a password-recovery code to an address.
public struct RecoverRequest: Codable, Sendable, Equatable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}
