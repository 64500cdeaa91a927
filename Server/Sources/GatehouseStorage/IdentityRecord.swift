public import Foundation
public import GatehouseCore
import GatehouseServerSupport

/// A provider identity (Apple, Google) linked to a user: one per provider and subject.
public struct IdentityRecord: Sendable, Equatable {
    /// The row id (`identity_id` on the wire).
    public var id: UUID
    public var userID: UUID
    /// The provider: `apple`, `google`, a configured provider's name, or `email`.
    public var provider: AuthProvider
    /// The provider's `sub` claim (`id` on the wire).
    public var subject: String
    /// The address the provider reported, if any (Apple sends it on the first sign-in only).
    public var email: String?
    /// Selected claims of the latest ID token: `sub`, `email`, `email_verified`, `iss`, …
    public var data: [String: JSONValue]
    public var lastSignInAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID? = nil,
        userID: UUID,
        provider: AuthProvider,
        subject: String,
        email: String?,
        data: [String: JSONValue],
        lastSignInAt: Date?,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id ?? .random()
        self.userID = userID
        self.provider = provider
        self.subject = subject
        self.email = email
        self.data = data
        self.lastSignInAt = lastSignInAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The wire representation.
    public var wire: WireIdentity {
        WireIdentity(
            identityID: id,
            id: subject,
            userID: userID,
            identityData: data,
            provider: provider.rawValue,
            email: email,
            lastSignInAt: lastSignInAt,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
    }
}
