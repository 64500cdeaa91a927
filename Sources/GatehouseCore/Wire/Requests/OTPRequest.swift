/// `POST /otp`: send a one-time e-mail code (magic code).
public struct OTPRequest: Codable, Sendable, Equatable {
    public var email: String
    /// Whether an unknown address signs up; GoTrue's default is `true`.
    public var createUser: Bool?
    public var data: [String: JSONValue]?

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
