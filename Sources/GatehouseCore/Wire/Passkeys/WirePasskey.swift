public import Foundation

/// A passkey as `GET /passkeys` lists it (never its key).
public struct WirePasskey: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// The name the user gave the passkey, if any.
    public var friendlyName: String?
    /// When the passkey was registered.
    public var createdAt: Date
    /// When the passkey last signed in; `nil` when it never did.
    public var lastUsedAt: Date?

    /// Creates a passkey as the list shows it.
    public init(id: UUID, friendlyName: String?, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.friendlyName = friendlyName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case friendlyName = "friendly_name"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        friendlyName = try c.decodeIfPresent(String.self, forKey: .friendlyName)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        lastUsedAt = try c.decodeIfPresent(Date.self, forKey: .lastUsedAt)
    }

    /// Encodes the id in lowercase, as GoTrue writes UUIDs.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encodeIfPresent(friendlyName, forKey: .friendlyName)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encodeIfPresent(lastUsedAt, forKey: .lastUsedAt)
    }
}
