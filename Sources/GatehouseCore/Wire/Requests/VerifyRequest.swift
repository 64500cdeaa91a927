/// `POST /verify`: by e-mail plus code, or by the link's token hash alone.
public struct VerifyRequest: Codable, Sendable, Equatable {
    public var type: VerificationType
    public var email: String?
    public var token: String?
    public var tokenHash: String?
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    public init(
        type: VerificationType,
        email: String? = nil,
        token: String? = nil,
        tokenHash: String? = nil,
        device: String? = nil
    ) {
        self.type = type
        self.email = email
        self.token = token
        self.tokenHash = tokenHash
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case type, email, token, device
        case tokenHash = "token_hash"
    }
}
