/// `POST /signup`: with an e-mail and password, or with neither for an anonymous user.
public struct SignUpRequest: Codable, Sendable, Equatable {
    /// The new account's address; `nil` with `password` for an anonymous user.
    public var email: String?
    /// The new account's password; `nil` with `email` for an anonymous user.
    public var password: String?
    /// The new user's metadata (`user_metadata`).
    public var data: [String: JSONValue]?
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    /// Creates the body of a sign-up; with no address and no password it signs up a guest.
    public init(email: String? = nil, password: String? = nil, data: [String: JSONValue]? = nil, device: String? = nil)
    {
        self.email = email
        self.password = password
        self.data = data
        self.device = device
    }
}
