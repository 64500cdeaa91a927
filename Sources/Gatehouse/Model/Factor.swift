public import Foundation

/// A second factor of a user: an authenticator app that yields 6-digit codes (TOTP).
public struct Factor: Sendable, Hashable, Codable, Identifiable {
    /// The factor's id, for ``MultiFactorAuth/challenge(factorID:)`` and friends.
    public var id: String
    /// The name the user gave it ("iPhone"); may be empty.
    public var friendlyName: String
    /// `totp`.
    public var factorType: String
    /// Whether a first code was accepted. Unverified factors lapse after 5 minutes and do not
    /// count for sign-in.
    public var isVerified: Bool
    /// When it was enrolled.
    public var createdAt: Date?

    /// Creates a factor value.
    public init(
        id: String,
        friendlyName: String = "",
        factorType: String = "totp",
        isVerified: Bool,
        createdAt: Date? = nil
    ) {
        self.id = id
        self.friendlyName = friendlyName
        self.factorType = factorType
        self.isVerified = isVerified
        self.createdAt = createdAt
    }

    /// Creates a factor from the wire representation.
    public init(wire: WireFactor) {
        self.init(
            id: wire.id.uuidString.lowercased(),
            friendlyName: wire.friendlyName,
            factorType: wire.factorType,
            isVerified: wire.isVerified,
            createdAt: wire.createdAt
        )
    }
}
