/// `POST /verify`: by e-mail plus code, or by the link's token hash alone.
public struct VerifyRequest: Codable, Sendable, Equatable {
    /// What the code verifies.
    public var type: VerificationType
    /// The address the code was sent to, with ``token``.
    public var email: String?
    /// The code from the e-mail, with ``email``.
    public var token: String?
    /// The token hash from an e-mailed link, alone.
    public var tokenHash: String?
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    /// Creates the body: `email` and `token`, or `tokenHash` alone.
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
