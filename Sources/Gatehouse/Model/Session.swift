public import Foundation

/// The tokens of a signed-in user, as a ``SessionStore`` keeps them.
public struct Session: Sendable, Equatable, Codable {
    /// The bearer token for API calls.
    public var accessToken: String
    /// The single-use token that obtains the next access token.
    public var refreshToken: String
    /// When the access token expires, by this device's clock (computed from `expires_in` on receipt).
    public var expiresAt: Date
    /// The user the tokens belong to.
    public var user: User
    /// The session's assurance level (the access token's `aal`): `aal2` once a code of the
    /// user's authenticator app was verified in it.
    public var aal: AssuranceLevel.Level

    /// Creates a session.
    public init(
        accessToken: String,
        refreshToken: String,
        expiresAt: Date,
        user: User,
        aal: AssuranceLevel.Level = .aal1
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
        self.aal = aal
    }

    /// The session's level and the level the user's verified factors reach.
    public var assuranceLevel: AssuranceLevel {
        AssuranceLevel(current: aal, next: user.hasVerifiedFactor ? .aal2 : aal)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        refreshToken = try c.decode(String.self, forKey: .refreshToken)
        expiresAt = try c.decode(Date.self, forKey: .expiresAt)
        user = try c.decode(User.self, forKey: .user)
        // Sessions stored before assurance levels existed are AAL1.
        aal = try c.decodeIfPresent(AssuranceLevel.Level.self, forKey: .aal) ?? .aal1
    }

    /// Whether the access token expires within `leeway` seconds of `now`.
    public func expires(within leeway: TimeInterval, of now: Date) -> Bool {
        expiresAt.timeIntervalSince(now) <= leeway
    }
}

extension Session {
    /// Creates a session from a GoTrue response, taking expiry from `expires_in` and the local
    /// clock so that a device clock that is off does not cause early or late refreshes.
    public init(wire: WireSession, receivedAt now: Date) {
        self.init(
            accessToken: wire.accessToken,
            refreshToken: wire.refreshToken,
            expiresAt: now.addingTimeInterval(TimeInterval(wire.expiresIn)),
            user: User(wire: wire.user),
            aal: AccessTokenClaims.assuranceLevel(of: wire.accessToken)
        )
    }
}
