/// `POST /token?grant_type=password`.
public struct PasswordGrantRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var phone: String?
    public var password: String
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    public init(email: String?, phone: String? = nil, password: String, device: String? = nil) {
        self.email = email
        self.phone = phone
        self.password = password
        self.device = device
    }
}
