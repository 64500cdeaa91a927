/// `POST /token?grant_type=password`.
public struct PasswordGrantRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var phone: String?
    public var password: String

    public init(email: String?, phone: String? = nil, password: String) {
        self.email = email
        self.phone = phone
        self.password = password
    }
}
