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
    /// The Apple user identifier (`ASAuthorizationAppleIDCredential.user`, the `sub` of the
    /// Apple ID token) when this session was opened by Sign in with Apple on this device; `nil`
    /// after any other sign-in, even of a user with an Apple identity linked.
    ///
    /// ``AuthService`` records it at the sign-in and keeps it across refreshes and second-factor
    /// verification; the Sign in with Apple credential check
    /// (``AuthService/checkAppleCredential()``) asks Apple only about this user. Sessions stored
    /// before it was recorded decode with `nil` (the check then reads the access token's `amr`).
    public var appleSignInUserID: String?

    /// Creates a session.
    public init(
        accessToken: String,
        refreshToken: String,
        expiresAt: Date,
        user: User,
        aal: AssuranceLevel.Level = .aal1,
        appleSignInUserID: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
        self.aal = aal
        self.appleSignInUserID = appleSignInUserID
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
        // Sessions stored before the Sign in with Apple origin was recorded have none.
        appleSignInUserID = try c.decodeIfPresent(String.self, forKey: .appleSignInUserID)
    }

    /// The Apple user Sign in with Apple is asked about for this session: the one recorded at
    /// its sign-in on this device, or, for a session stored before that was recorded, the
    /// user's Apple identity when the access token's `amr` says Sign in with Apple opened the
    /// session (a Gatehouse server writes `{"method": "oauth", "provider": "apple"}`). `nil` for
    /// every other sign-in: a password, a code or a passkey of a user who linked Apple elsewhere
    /// is never asked about, since Apple answers only for the Apple Account of this device.
    public var appleUserIDToCheck: String? {
        if let appleSignInUserID { return appleSignInUserID }
        return AccessTokenClaims.openedBySignInWithApple(accessToken) ? user.appleUserID : nil
    }

    /// This session with the Sign in with Apple origin of `earlier`, when both belong to the
    /// same user and this one records none (a refresh or a second factor keeps the session's
    /// origin; the backend does not know it).
    func keepingAppleSignIn(of earlier: Session?) -> Session {
        guard appleSignInUserID == nil, let earlier, earlier.user.id == user.id else { return self }
        var kept = self
        kept.appleSignInUserID = earlier.appleSignInUserID
        return kept
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
