/// `POST /token?grant_type=id_token`: sign in (or link) with an Apple or Google ID token.
public struct IDTokenGrantRequest: Codable, Sendable, Equatable {
    /// `apple` or `google`.
    public var provider: String
    public var idToken: String
    /// The raw nonce; the token carries its SHA-256 hex.
    public var nonce: String?
    public var accessToken: String?
    /// Link the identity to the signed-in caller instead of signing in.
    public var linkIdentity: Bool?
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?

    public init(
        provider: String,
        idToken: String,
        nonce: String? = nil,
        accessToken: String? = nil,
        linkIdentity: Bool? = nil,
        device: String? = nil
    ) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
        self.accessToken = accessToken
        self.linkIdentity = linkIdentity
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case provider, nonce, device
        case idToken = "id_token"
        case accessToken = "access_token"
        case linkIdentity = "link_identity"
    }
}
