public import Foundation

/// A signed-in user, guest or permanent.
public struct User: Sendable, Hashable, Codable, Identifiable {
    /// The user's stable identifier (a UUID string on GoTrue-compatible servers).
    public var id: String
    /// The e-mail address, if the user has one (guests do not).
    public var email: String?
    /// Whether this is a guest (anonymous) user who can be upgraded later.
    public var isAnonymous: Bool
    /// When the account was created.
    public var createdAt: Date?
    /// When the user last signed in.
    public var lastSignInAt: Date?
    /// When the e-mail address was confirmed, if it was.
    public var emailConfirmedAt: Date?
    /// An address asked for and not yet confirmed (an e-mail change, or a guest's upgrade).
    /// It never signs in until its code is entered.
    public var newEmail: String?
    /// Server-controlled metadata (provider, roles); users cannot change it.
    public var appMetadata: [String: JSONValue]
    /// User-controlled metadata (display name, preferences).
    public var userMetadata: [String: JSONValue]
    /// The user's second factors (authenticator apps), verified or not.
    public var factors: [Factor]
    /// The ways the user signs in that a provider vouches for (e-mail, Apple, Google).
    public var identities: [UserIdentity]

    /// Creates a user value.
    public init(
        id: String,
        email: String? = nil,
        isAnonymous: Bool = false,
        createdAt: Date? = nil,
        lastSignInAt: Date? = nil,
        emailConfirmedAt: Date? = nil,
        newEmail: String? = nil,
        appMetadata: [String: JSONValue] = [:],
        userMetadata: [String: JSONValue] = [:],
        factors: [Factor] = [],
        identities: [UserIdentity] = []
    ) {
        self.id = id
        self.email = email
        self.isAnonymous = isAnonymous
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
        self.emailConfirmedAt = emailConfirmedAt
        self.newEmail = newEmail
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
        self.factors = factors
        self.identities = identities
    }

    /// Whether the user has a verified second factor: a sign-in needs its code to complete.
    public var hasVerifiedFactor: Bool { factors.contains(where: \.isVerified) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        isAnonymous = try c.decode(Bool.self, forKey: .isAnonymous)
        createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
        lastSignInAt = try c.decodeIfPresent(Date.self, forKey: .lastSignInAt)
        emailConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .emailConfirmedAt)
        newEmail = try c.decodeIfPresent(String.self, forKey: .newEmail)
        appMetadata = try c.decode([String: JSONValue].self, forKey: .appMetadata)
        userMetadata = try c.decode([String: JSONValue].self, forKey: .userMetadata)
        // Sessions stored before factors existed have none.
        factors = try c.decodeIfPresent([Factor].self, forKey: .factors) ?? []
        // Sessions stored before identities were kept have none until the next user lookup.
        identities = try c.decodeIfPresent([UserIdentity].self, forKey: .identities) ?? []
    }
}

extension User {
    /// Creates a user from the GoTrue wire representation.
    public init(wire: WireUser) {
        self.init(
            id: wire.id.uuidString.lowercased(),
            email: wire.email.flatMap { $0.isEmpty ? nil : $0 },
            isAnonymous: wire.isAnonymous,
            createdAt: wire.createdAt,
            lastSignInAt: wire.lastSignInAt,
            emailConfirmedAt: wire.emailConfirmedAt,
            newEmail: wire.newEmail.flatMap { $0.isEmpty ? nil : $0 },
            appMetadata: wire.appMetadata,
            userMetadata: wire.userMetadata,
            factors: (wire.factors ?? []).map(Factor.init(wire:)),
            identities: (wire.identities ?? []).map(UserIdentity.init(wire:))
        )
    }
}
