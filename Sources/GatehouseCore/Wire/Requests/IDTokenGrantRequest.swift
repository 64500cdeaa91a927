/// `POST /token?grant_type=id_token`: sign in (or link) with an Apple or Google ID token.
public struct IDTokenGrantRequest: Codable, Sendable, Equatable {
    /// `apple` or `google`.
    public var provider: String
    /// The ID token (a JWT) the provider issued to the app.
    public var idToken: String
    /// The raw nonce; the token carries its SHA-256 hex.
    public var nonce: String?
    /// The provider's access token issued with the ID token, for providers whose ID token carries its hash (`at_hash`); Apple and Google sign-ins send none.
    public var accessToken: String?
    /// Link the identity to the signed-in caller instead of signing in.
    public var linkIdentity: Bool?
    /// A label for the signing-in device ("Ada's iPhone"), listed by `GET /user/sessions`.
    public var device: String?
    /// Apple's one-time authorization code, sent beside Apple's ID token.
    public var authorizationCode: String?
    /// The first-authorization name as Apple gives it (`full_name`).
    public var fullName: WirePersonName?
    /// The first name, as a flat field (`given_name`).
    public var givenName: String?
    /// The last name, as a flat field (`family_name`).
    public var familyName: String?
    /// Supabase-style user data; `full_name`, `given_name` and `family_name` are read from it.
    public var data: [String: JSONValue]?
    /// With ``linkIdentity``: a reauthentication code (`GET /reauthenticate`), needed when the
    /// caller's last sign-in is not recent (``nonce`` is the ID token's).
    public var reauthenticationNonce: String?

    /// Creates the body of an ID-token sign-in or link.
    public init(
        provider: String,
        idToken: String,
        nonce: String? = nil,
        accessToken: String? = nil,
        linkIdentity: Bool? = nil,
        device: String? = nil,
        authorizationCode: String? = nil,
        fullName: WirePersonName? = nil,
        givenName: String? = nil,
        familyName: String? = nil,
        data: [String: JSONValue]? = nil,
        reauthenticationNonce: String? = nil
    ) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
        self.accessToken = accessToken
        self.linkIdentity = linkIdentity
        self.device = device
        self.authorizationCode = authorizationCode
        self.fullName = fullName
        self.givenName = givenName
        self.familyName = familyName
        self.data = data
        self.reauthenticationNonce = reauthenticationNonce
    }

    enum CodingKeys: String, CodingKey {
        case provider, nonce, device, data
        case authorizationCode = "authorization_code"
        case fullName = "full_name"
        case givenName = "given_name"
        case familyName = "family_name"
        case idToken = "id_token"
        case accessToken = "access_token"
        case linkIdentity = "link_identity"
        case reauthenticationNonce = "reauthentication_nonce"
    }
}
