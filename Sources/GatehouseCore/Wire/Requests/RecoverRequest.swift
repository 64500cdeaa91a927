/// `POST /recover`: send a password-recovery code to an address.
public struct RecoverRequest: Codable, Sendable, Equatable {
    /// The address of the account to recover.
    public var email: String

    /// Creates the body that asks for a recovery code for `email`.
    public init(email: String) {
        self.email = email
    }
}
