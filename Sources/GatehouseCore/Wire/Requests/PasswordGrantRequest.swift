/// `POST /token?grant_type=password`.
public struct PasswordGrantRequest: Codable, Sendable, Equatable {
    /// The account's e-mail address.
    public var email: String?
    /// The account's phone number, for servers that sign in by phone (Gatehouse's server does not).
    public var phone: String?
    /// The password.
    public var password: String
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    /// Creates the body of a password sign-in.
    public init(email: String?, phone: String? = nil, password: String, device: String? = nil) {
        self.email = email
        self.phone = phone
        self.password = password
        self.device = device
    }
}
