/// `POST /verify`: by e-mail plus code, or by the link's token hash alone.
public struct VerifyRequest: Codable, Sendable, Equatable {
    public var type: VerificationType
    public var email: String?
    public var token: String?
    public var tokenHash: String?

    public init(type: VerificationType, email: String? = nil, token: String? = nil, tokenHash: String? = nil) {
        self.type = type
        self.email = email
        self.token = token
        self.tokenHash = tokenHash
    }

    enum CodingKeys: String, CodingKey {
        case type, email, token
        case tokenHash = "token_hash"
    }
}
