/// `PUT /user`: change the signed-in user's e-mail, password or metadata.
public struct UpdateUserRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var currentPassword: String?
    /// A reauthentication nonce from `GET /reauthenticate`.
    public var nonce: String?
    /// Merged into `user_metadata`.
    public var data: [String: JSONValue]?

    public init(
        email: String? = nil,
        password: String? = nil,
        currentPassword: String? = nil,
        nonce: String? = nil,
        data: [String: JSONValue]? = nil
    ) {
        self.email = email
        self.password = password
        self.currentPassword = currentPassword
        self.nonce = nonce
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case email, password, nonce, data
        case currentPassword = "current_password"
    }
}
