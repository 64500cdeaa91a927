/// `POST /token?grant_type=refresh_token`.
public struct RefreshTokenGrantRequest: Codable, Sendable, Equatable {
    /// The session's current refresh token.
    public var refreshToken: String

    /// Creates the body that refreshes the session of `refreshToken`.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
    }
}
