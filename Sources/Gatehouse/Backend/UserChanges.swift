/// Changes to the signed-in user, for ``AuthService/updateUser(_:)``.
public struct UserChanges: Sendable, Equatable {
    /// A new e-mail address (confirmed by a code sent to it).
    public var email: String?
    /// A new password.
    public var password: String?
    /// The current password, when the server asks for proof.
    public var currentPassword: String?
    /// A reauthentication code, when the server asks for one.
    public var nonce: String?
    /// Keys to merge into the user's metadata.
    public var data: [String: JSONValue]?

    /// Creates a change set.
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
}
