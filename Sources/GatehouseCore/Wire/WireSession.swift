/// A session as `/token`, `/verify` and anonymous `/signup` return it (`protocol.md` §3).
public struct WireSession: Codable, Sendable, Equatable {
    /// The access token, a JWT to send as `Authorization: Bearer`.
    public var accessToken: String
    /// Always `bearer`.
    public var tokenType: String
    /// Seconds the access token stays valid from the moment it was issued.
    public var expiresIn: Int
    /// Unix seconds at which the access token expires.
    public var expiresAt: Int
    /// The refresh token, which `POST /token?grant_type=refresh_token` exchanges for a new session; it works once.
    public var refreshToken: String
    /// The signed-in user.
    public var user: WireUser
    /// Reasons the password used to sign in is weak, when it is.
    public var weakPassword: WeakPasswordInfo?
    /// The provider's access token, after a sign-in through a provider's page (`/callback`, then
    /// `grant_type=pkce`), for calling the provider's API; `nil` otherwise.
    public var providerToken: String?
    /// The provider's refresh token, when the provider issued one.
    public var providerRefreshToken: String?

    /// Creates a session as the server returns it.
    public init(
        accessToken: String,
        tokenType: String = "bearer",
        expiresIn: Int,
        expiresAt: Int,
        refreshToken: String,
        user: WireUser,
        weakPassword: WeakPasswordInfo? = nil,
        providerToken: String? = nil,
        providerRefreshToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.user = user
        self.weakPassword = weakPassword
        self.providerToken = providerToken
        self.providerRefreshToken = providerRefreshToken
    }

    enum CodingKeys: String, CodingKey {
        case user
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
        case weakPassword = "weak_password"
        case providerToken = "provider_token"
        case providerRefreshToken = "provider_refresh_token"
    }
}

/// Why a password is weak: `length`, `characters` or `pwned`.
public struct WeakPasswordInfo: Codable, Sendable, Equatable {
    /// A sentence for a person, when the server gives one.
    public var message: String?
    /// The reasons: `length`, `characters` or `pwned`.
    public var reasons: [String]

    /// Creates the reasons.
    public init(message: String? = nil, reasons: [String]) {
        self.message = message
        self.reasons = reasons
    }
}
