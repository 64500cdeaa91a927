public import Foundation
public import GatehouseCore
import GatehouseServerSupport

/// A session row: one sign-in and its refresh-token family.
///
/// Refresh tokens are never stored: they are recomputed from the session id, its salt and the
/// counter under the server secret (see ``RefreshTokenCodec``).
public struct SessionRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    /// Random per-session salt (hex).
    public var salt: String
    /// The counter of the one live refresh token.
    public var counter: Int64
    public var createdAt: Date
    /// When the session was last used to refresh (inactivity timeout).
    public var refreshedAt: Date
    /// When the counter last moved (reuse interval).
    public var rotatedAt: Date?
    /// Authentication methods, newest first, as `method:timestamp`.
    public var amr: [AMREntry]
    /// The device label given at sign-in (``DeviceLabel``), if any.
    public var device: String?
    /// The client address the session signed in from.
    public var createdIP: String?
    /// The client address of the last refresh.
    public var refreshedIP: String?
    /// The assurance level: `aal1`, or `aal2` once a second factor was verified in it.
    public var aal: AuthenticatorAssuranceLevel = .aal1
    /// The factor an `aal2` session relied on (removing it drops the session to `aal1`).
    public var factorID: UUID?

    public init(
        id: UUID? = nil,
        userID: UUID,
        salt: String,
        counter: Int64 = 0,
        createdAt: Date,
        refreshedAt: Date,
        rotatedAt: Date? = nil,
        amr: [AMREntry],
        device: String? = nil,
        createdIP: String? = nil,
        refreshedIP: String? = nil
    ) {
        self.id = id ?? .random()
        self.userID = userID
        self.salt = salt
        self.counter = counter
        self.createdAt = createdAt
        self.refreshedAt = refreshedAt
        self.rotatedAt = rotatedAt
        self.amr = amr
        self.device = device
        self.createdIP = createdIP
        self.refreshedIP = refreshedIP
    }
}

/// One authentication method in the `amr` claim.
public struct AMREntry: Codable, Sendable, Equatable {
    public var method: AuthenticationMethod
    public var timestamp: Int
    /// The identity provider of an `oauth` entry (`apple`, `google`), as GoTrue writes it for
    /// SSO: Apple's notifications end the sessions Sign in with Apple opened.
    public var provider: AuthProvider?

    public init(method: AuthenticationMethod, timestamp: Int, provider: AuthProvider? = nil) {
        self.method = method
        self.timestamp = timestamp
        self.provider = provider
    }
}
