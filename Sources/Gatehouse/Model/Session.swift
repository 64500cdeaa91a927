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

    /// Creates a session.
    public init(accessToken: String, refreshToken: String, expiresAt: Date, user: User) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
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
            user: User(wire: wire.user)
        )
    }
}
