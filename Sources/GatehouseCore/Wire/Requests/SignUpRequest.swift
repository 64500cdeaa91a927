/// `POST /signup`: with an e-mail and password, or with neither for an anonymous user.
public struct SignUpRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var data: [String: JSONValue]?

    public init(email: String? = nil, password: String? = nil, data: [String: JSONValue]? = nil) {
        self.email = email
        self.password = password
        self.data = data
    }
}
