public import Foundation
import GatehouseServerSupport

/// A passkey: a WebAuthn credential a user signs in with.
public struct PasskeyRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    /// The authenticator's credential id (base64url), unique across users.
    public var credentialID: String
    /// The COSE public key (base64url of its CBOR).
    public var publicKey: String
    /// The COSE algorithm (-7 ES256, -8 EdDSA, -257 RS256).
    public var algorithm: Int
    /// `none` or `self`.
    public var attestationType: String
    /// The authenticator model (UUID text; all zeros for most passkeys).
    public var aaguid: String
    public var signCount: Int64
    public var transports: [String]
    public var backupEligible: Bool
    public var backedUp: Bool
    public var friendlyName: String
    public var createdAt: Date
    public var updatedAt: Date
    public var lastUsedAt: Date?

    public init(
        id: UUID? = nil,
        userID: UUID,
        credentialID: String,
        publicKey: String,
        algorithm: Int,
        attestationType: String,
        aaguid: String,
        signCount: Int64,
        transports: [String],
        backupEligible: Bool,
        backedUp: Bool,
        friendlyName: String,
        createdAt: Date,
        updatedAt: Date,
        lastUsedAt: Date? = nil
    ) {
        self.id = id ?? .random()
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.attestationType = attestationType
        self.aaguid = aaguid
        self.signCount = signCount
        self.transports = transports
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.friendlyName = friendlyName
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A WebAuthn challenge handed out with ceremony options, used at most once before it expires.
public struct WebAuthnChallengeRecord: Sendable, Equatable {
    /// What the challenge is for.
    public enum Kind: String, Sendable {
        case registration, authentication
    }

    public var id: UUID
    /// The user registering; `nil` for a discoverable sign-in.
    public var userID: UUID?
    public var kind: Kind
    /// The challenge bytes (base64url).
    public var challenge: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(id: UUID? = nil, userID: UUID?, kind: Kind, challenge: String, createdAt: Date, expiresAt: Date) {
        self.id = id ?? .random()
        self.userID = userID
        self.kind = kind
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
