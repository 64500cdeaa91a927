/// `POST /otp`: send a one-time e-mail code (magic code).
public struct OTPRequest: Codable, Sendable, Equatable {
    /// The address the code goes to.
    public var email: String
    /// Whether an unknown address signs up; GoTrue's default is `true`.
    public var createUser: Bool?
    /// User metadata for an account the request signs up (`user_metadata`).
    public var data: [String: JSONValue]?

    /// Creates the body that asks for a sign-in code.
    public init(email: String, createUser: Bool? = nil, data: [String: JSONValue]? = nil) {
        self.email = email
        self.createUser = createUser
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case email, data
        case createUser = "create_user"
    }
}
