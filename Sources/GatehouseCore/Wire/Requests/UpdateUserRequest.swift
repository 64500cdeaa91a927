/// `PUT /user`: change the signed-in user's e-mail, password or metadata.
public struct UpdateUserRequest: Codable, Sendable, Equatable {
    /// A new e-mail address: the server mails codes to confirm it (a secure e-mail change).
    public var email: String?
    /// A new password.
    public var password: String?
    /// The current password, one way to prove a password change when the last sign-in is not recent.
    public var currentPassword: String?
    /// A reauthentication nonce from `GET /reauthenticate`.
    public var nonce: String?
    /// Merged into `user_metadata`.
    public var data: [String: JSONValue]?

    /// Creates the body; fields left `nil` are not changed.
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
