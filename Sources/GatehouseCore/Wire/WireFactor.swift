public import Foundation

/// A second factor of a user, as `GET /user` lists it (`protocol.md` §3).
public struct WireFactor: Codable, Sendable, Equatable {
    /// The factor's id.
    public var id: UUID
    /// `verified` once a first code was accepted, else `unverified` (it lapses after 300 s).
    public var status: String
    /// The name the user gave it; unique per user, may be empty.
    public var friendlyName: String
    /// `totp` (authenticator apps).
    public var factorType: String
    /// When the factor was enrolled.
    public var createdAt: Date
    /// When the factor last changed.
    public var updatedAt: Date
    /// When the factor was last challenged; `nil` when it never was.
    public var lastChallengedAt: Date?

    /// Creates a factor as `GET /user` lists it.
    public init(
        id: UUID,
        status: String,
        friendlyName: String,
        factorType: String = "totp",
        createdAt: Date,
        updatedAt: Date,
        lastChallengedAt: Date? = nil
    ) {
        self.id = id
        self.status = status
        self.friendlyName = friendlyName
        self.factorType = factorType
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastChallengedAt = lastChallengedAt
    }

    /// Whether a code from it was accepted once (only verified factors raise a sign-in to AAL2).
    public var isVerified: Bool { status == "verified" }

    enum CodingKeys: String, CodingKey {
        case id, status
        case friendlyName = "friendly_name"
        case factorType = "factor_type"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastChallengedAt = "last_challenged_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        status = try c.decode(String.self, forKey: .status)
        friendlyName = try c.decodeIfPresent(String.self, forKey: .friendlyName) ?? ""
        factorType = try c.decodeIfPresent(String.self, forKey: .factorType) ?? "totp"
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt) ?? createdAt
        lastChallengedAt = try c.decodeIfPresent(Date.self, forKey: .lastChallengedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encode(status, forKey: .status)
        try c.encode(friendlyName, forKey: .friendlyName)
        try c.encode(factorType, forKey: .factorType)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encodeIfPresent(lastChallengedAt, forKey: .lastChallengedAt)
    }
}
