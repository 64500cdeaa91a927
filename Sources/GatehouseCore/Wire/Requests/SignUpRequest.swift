/// `POST /signup`: with an e-mail and password, or with neither for an anonymous user.
public struct SignUpRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var data: [String: JSONValue]?
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    public init(email: String? = nil, password: String? = nil, data: [String: JSONValue]? = nil, device: String? = nil)
    {
        self.email = email
        self.password = password
        self.data = data
        self.device = device
    }
}
