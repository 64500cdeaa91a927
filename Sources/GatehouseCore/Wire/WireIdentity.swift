public import Foundation

/// A linked sign-in identity (`protocol.md` §3).
///
/// The naming is historical and must stay: `id` is the provider's subject and `identityID`
/// (`identity_id`) is the row's own UUID.
public struct WireIdentity: Codable, Sendable, Equatable {
    /// The identity's own id (`identity_id`), which `DELETE /user/identities/{id}` takes.
    public var identityID: UUID
    /// The provider's subject (`sub`) for this identity.
    public var id: String
    /// The user the identity belongs to.
    public var userID: UUID
    /// What the provider said about the user (`sub`, `email`, `email_verified`, …).
    public var identityData: [String: JSONValue]
    /// The provider: `email`, `apple`, `google`, …
    public var provider: String
    /// The address the provider gave, if any.
    public var email: String?
    /// When the user last signed in with this identity.
    public var lastSignInAt: Date?
    /// When the identity was linked.
    public var createdAt: Date
    /// When the identity last changed.
    public var updatedAt: Date

    /// Creates an identity as the wire carries it.
    public init(
        identityID: UUID,
        id: String,
        userID: UUID,
        identityData: [String: JSONValue],
        provider: String,
        email: String?,
        lastSignInAt: Date?,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.identityID = identityID
        self.id = id
        self.userID = userID
        self.identityData = identityData
        self.provider = provider
        self.email = email
        self.lastSignInAt = lastSignInAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, provider, email
        case identityID = "identity_id"
        case userID = "user_id"
        case identityData = "identity_data"
        case lastSignInAt = "last_sign_in_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identityID.uuidString.lowercased(), forKey: .identityID)
        try c.encode(id, forKey: .id)
        try c.encode(userID.uuidString.lowercased(), forKey: .userID)
        try c.encode(identityData, forKey: .identityData)
        try c.encode(provider, forKey: .provider)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encodeIfPresent(lastSignInAt, forKey: .lastSignInAt)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}
