public import Foundation

/// The GoTrue `User` object as it travels on the wire (`protocol.md` §3).
///
/// The server encodes it and the SDK decodes it; fields a server omits decode as `nil`.
public struct WireUser: Codable, Sendable, Equatable {
    /// The user's id.
    public var id: UUID
    /// The audience of the user's tokens (`authenticated`).
    public var aud: String
    /// The user's role in the tokens' `role` claim (`authenticated`).
    public var role: String
    /// The user's e-mail address; `nil` for a guest and for an account without one.
    public var email: String?
    /// The phone number; `""` when absent, never `null`.
    public var phone: String
    /// When the address was confirmed.
    public var emailConfirmedAt: Date?
    /// When the phone number was confirmed (never, on Gatehouse's server).
    public var phoneConfirmedAt: Date?
    /// When the account was confirmed: the earlier of the two above.
    public var confirmedAt: Date?
    /// When the last confirmation code was sent.
    public var confirmationSentAt: Date?
    /// When an admin invited the user.
    public var invitedAt: Date?
    /// When the last recovery code was sent.
    public var recoverySentAt: Date?
    /// An address waiting to be confirmed by the codes of an e-mail change.
    public var newEmail: String?
    /// When the codes of the pending e-mail change were sent.
    public var emailChangeSentAt: Date?
    /// When the last reauthentication code was sent.
    public var reauthenticationSentAt: Date?
    /// When the user last signed in.
    public var lastSignInAt: Date?
    /// Metadata only the server and admins write (`provider`, `providers`).
    public var appMetadata: [String: JSONValue]
    /// Metadata the user writes (`PUT /user` `data`).
    public var userMetadata: [String: JSONValue]
    /// The user's ways to sign in: an `email` identity, Apple, Google.
    public var identities: [WireIdentity]?
    /// The second factors (authenticator apps), verified or not; omitted when there are none.
    public var factors: [WireFactor]?
    /// When the account was created.
    public var createdAt: Date
    /// When the account last changed.
    public var updatedAt: Date
    /// Until when the user is banned; `nil` when not banned.
    public var bannedUntil: Date?
    /// When the account was deleted (soft deletion); `nil` otherwise.
    public var deletedAt: Date?
    /// Whether the user is a guest (an anonymous sign-up not upgraded yet).
    public var isAnonymous: Bool

    /// Creates a user as the wire carries it; the defaults are those of a new account.
    public init(
        id: UUID,
        aud: String = "authenticated",
        role: String = "authenticated",
        email: String? = nil,
        phone: String = "",
        emailConfirmedAt: Date? = nil,
        phoneConfirmedAt: Date? = nil,
        confirmedAt: Date? = nil,
        confirmationSentAt: Date? = nil,
        invitedAt: Date? = nil,
        recoverySentAt: Date? = nil,
        newEmail: String? = nil,
        emailChangeSentAt: Date? = nil,
        reauthenticationSentAt: Date? = nil,
        lastSignInAt: Date? = nil,
        appMetadata: [String: JSONValue] = [:],
        userMetadata: [String: JSONValue] = [:],
        identities: [WireIdentity]? = nil,
        factors: [WireFactor]? = nil,
        createdAt: Date,
        updatedAt: Date,
        bannedUntil: Date? = nil,
        deletedAt: Date? = nil,
        isAnonymous: Bool = false
    ) {
        self.id = id
        self.aud = aud
        self.role = role
        self.email = email
        self.phone = phone
        self.emailConfirmedAt = emailConfirmedAt
        self.phoneConfirmedAt = phoneConfirmedAt
        self.confirmedAt = confirmedAt
        self.confirmationSentAt = confirmationSentAt
        self.invitedAt = invitedAt
        self.recoverySentAt = recoverySentAt
        self.newEmail = newEmail
        self.emailChangeSentAt = emailChangeSentAt
        self.reauthenticationSentAt = reauthenticationSentAt
        self.lastSignInAt = lastSignInAt
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
        self.identities = identities
        self.factors = factors
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.bannedUntil = bannedUntil
        self.deletedAt = deletedAt
        self.isAnonymous = isAnonymous
    }

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities, factors
        case emailConfirmedAt = "email_confirmed_at"
        case phoneConfirmedAt = "phone_confirmed_at"
        case confirmedAt = "confirmed_at"
        case confirmationSentAt = "confirmation_sent_at"
        case invitedAt = "invited_at"
        case recoverySentAt = "recovery_sent_at"
        case newEmail = "new_email"
        case emailChangeSentAt = "email_change_sent_at"
        case reauthenticationSentAt = "reauthentication_sent_at"
        case lastSignInAt = "last_sign_in_at"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case bannedUntil = "banned_until"
        case deletedAt = "deleted_at"
        case isAnonymous = "is_anonymous"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        aud = try c.decodeIfPresent(String.self, forKey: .aud) ?? ""
        role = try c.decodeIfPresent(String.self, forKey: .role) ?? ""
        email = try c.decodeIfPresent(String.self, forKey: .email).flatMap { $0.isEmpty ? nil : $0 }
        phone = try c.decodeIfPresent(String.self, forKey: .phone) ?? ""
        emailConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .emailConfirmedAt)
        phoneConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .phoneConfirmedAt)
        confirmedAt = try c.decodeIfPresent(Date.self, forKey: .confirmedAt)
        confirmationSentAt = try c.decodeIfPresent(Date.self, forKey: .confirmationSentAt)
        invitedAt = try c.decodeIfPresent(Date.self, forKey: .invitedAt)
        recoverySentAt = try c.decodeIfPresent(Date.self, forKey: .recoverySentAt)
        newEmail = try c.decodeIfPresent(String.self, forKey: .newEmail)
        emailChangeSentAt = try c.decodeIfPresent(Date.self, forKey: .emailChangeSentAt)
        reauthenticationSentAt = try c.decodeIfPresent(Date.self, forKey: .reauthenticationSentAt)
        lastSignInAt = try c.decodeIfPresent(Date.self, forKey: .lastSignInAt)
        appMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .appMetadata) ?? [:]
        userMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .userMetadata) ?? [:]
        identities = try c.decodeIfPresent([WireIdentity].self, forKey: .identities)
        factors = try c.decodeIfPresent([WireFactor].self, forKey: .factors)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt) ?? createdAt
        bannedUntil = try c.decodeIfPresent(Date.self, forKey: .bannedUntil)
        deletedAt = try c.decodeIfPresent(Date.self, forKey: .deletedAt)
        isAnonymous = try c.decodeIfPresent(Bool.self, forKey: .isAnonymous) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encode(aud, forKey: .aud)
        try c.encode(role, forKey: .role)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encode(phone, forKey: .phone)
        try c.encodeIfPresent(emailConfirmedAt, forKey: .emailConfirmedAt)
        try c.encodeIfPresent(phoneConfirmedAt, forKey: .phoneConfirmedAt)
        try c.encodeIfPresent(confirmedAt, forKey: .confirmedAt)
        try c.encodeIfPresent(confirmationSentAt, forKey: .confirmationSentAt)
        try c.encodeIfPresent(invitedAt, forKey: .invitedAt)
        try c.encodeIfPresent(recoverySentAt, forKey: .recoverySentAt)
        try c.encodeIfPresent(newEmail, forKey: .newEmail)
        try c.encodeIfPresent(emailChangeSentAt, forKey: .emailChangeSentAt)
        try c.encodeIfPresent(reauthenticationSentAt, forKey: .reauthenticationSentAt)
        try c.encodeIfPresent(lastSignInAt, forKey: .lastSignInAt)
        try c.encode(appMetadata, forKey: .appMetadata)
        try c.encode(userMetadata, forKey: .userMetadata)
        try c.encodeIfPresent(identities, forKey: .identities)
        if let factors, !factors.isEmpty { try c.encode(factors, forKey: .factors) }
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encodeIfPresent(bannedUntil, forKey: .bannedUntil)
        try c.encodeIfPresent(deletedAt, forKey: .deletedAt)
        try c.encode(isAnonymous, forKey: .isAnonymous)
    }
}
