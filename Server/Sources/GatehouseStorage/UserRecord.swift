public import Foundation
public import GatehouseCore
import GatehouseServerSupport

/// A user row.
public struct UserRecord: Sendable, Equatable {
    public var id: UUID
    public var email: String?
    /// A bcrypt hash (`$2b$…`), or `nil` for users without a password.
    public var passwordHash: String?
    public var emailConfirmedAt: Date?
    public var confirmationSentAt: Date?
    public var recoverySentAt: Date?
    /// An address asked for and not yet proven (`PUT /user {email}`), never used to sign in.
    public var newEmail: String?
    public var emailChangeSentAt: Date?
    /// The link hash of the sign-up code sent with a password that is not proven yet: only
    /// that code keeps the password when it confirms the address (`security.md` OWN-1).
    public var passwordCode: String?
    public var lastSignInAt: Date?
    public var appMetadata: [String: JSONValue]
    public var userMetadata: [String: JSONValue]
    public var isAnonymous: Bool
    public var bannedUntil: Date?
    public var role: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Linked provider identities (read with the user; written through the identity calls).
    public var identities: [IdentityRecord]
    /// Second factors, without their secrets when read with the user; written through the factor
    /// calls, or with the user, sealed, by an import (``StorageTransaction/insertUsers(_:)``).
    public var factors: [FactorRecord] = []

    public init(
        id: UUID? = nil,
        email: String? = nil,
        passwordHash: String? = nil,
        emailConfirmedAt: Date? = nil,
        confirmationSentAt: Date? = nil,
        recoverySentAt: Date? = nil,
        newEmail: String? = nil,
        emailChangeSentAt: Date? = nil,
        passwordCode: String? = nil,
        lastSignInAt: Date? = nil,
        appMetadata: [String: JSONValue] = [:],
        userMetadata: [String: JSONValue] = [:],
        isAnonymous: Bool = false,
        bannedUntil: Date? = nil,
        role: String = "authenticated",
        createdAt: Date,
        updatedAt: Date,
        identities: [IdentityRecord] = []
    ) {
        self.id = id ?? .random()
        self.email = email
        self.passwordHash = passwordHash
        self.emailConfirmedAt = emailConfirmedAt
        self.confirmationSentAt = confirmationSentAt
        self.recoverySentAt = recoverySentAt
        self.newEmail = newEmail
        self.emailChangeSentAt = emailChangeSentAt
        self.passwordCode = passwordCode
        self.lastSignInAt = lastSignInAt
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
        self.isAnonymous = isAnonymous
        self.bannedUntil = bannedUntil
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.identities = identities
    }

    /// Whether the user has a verified second factor (its sessions need AAL2 for some changes).
    package var hasVerifiedFactor: Bool { factors.contains(where: \.isVerified) }

    /// The user without unverified factors that waited longer than 300 s for their first code.
    package func withoutLapsedFactors(at now: Date) -> UserRecord {
        var user = self
        user.factors.removeAll { $0.hasLapsed(at: now) }
        return user
    }

    /// Whether the user is banned at `now`.
    package func isBanned(at now: Date) -> Bool { bannedUntil.map { $0 > now } ?? false }

    /// Whether the user can sign in with the e-mail address (password or e-mailed code): a
    /// permanent user with an address who either has a password or has no provider identity.
    /// A user created by Apple or Google sign-in has only that identity.
    package var hasEmailIdentity: Bool {
        email != nil && !isAnonymous && (passwordHash != nil || identities.isEmpty)
    }

    /// The synthesized `email` identity (its id is the user's id, as in GoTrue).
    private var emailIdentity: WireIdentity? {
        guard hasEmailIdentity, let email else { return nil }
        return WireIdentity(
            identityID: id,
            id: id.uuidString.lowercased(),
            userID: id,
            identityData: [
                "sub": .string(id.uuidString.lowercased()), "email": .string(email),
                "email_verified": .bool(emailConfirmedAt != nil),
            ],
            provider: AuthProvider.email.rawValue,
            email: email,
            lastSignInAt: lastSignInAt,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
    }

    /// The wire representation.
    public var wire: WireUser {
        WireUser(
            id: id,
            role: role,
            email: email,
            emailConfirmedAt: emailConfirmedAt,
            confirmedAt: emailConfirmedAt,
            confirmationSentAt: confirmationSentAt,
            recoverySentAt: recoverySentAt,
            newEmail: newEmail,
            emailChangeSentAt: emailChangeSentAt,
            lastSignInAt: lastSignInAt,
            appMetadata: appMetadata,
            userMetadata: userMetadata,
            identities: (emailIdentity.map { [$0] } ?? []) + identities.map(\.wire),
            factors: factors.map(\.wire),
            createdAt: createdAt,
            updatedAt: updatedAt,
            bannedUntil: bannedUntil,
            isAnonymous: isAnonymous
        )
    }
}
