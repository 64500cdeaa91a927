public import Foundation
public import GatehouseCore
import GatehouseServerSupport

/// A second factor of a user: an authenticator app's TOTP secret, unverified until its first
/// code is accepted.
public struct FactorRecord: Sendable, Equatable {
    /// How long an unverified factor waits for its first code.
    public static let enrolmentLifetime: TimeInterval = 300

    public var id: UUID
    public var userID: UUID
    /// Unique per user when not empty.
    public var friendlyName: String
    /// `totp`.
    public var factorType: String
    public var isVerified: Bool
    /// The secret sealed under the server secret (``FactorSecretSealing``); `nil` when the row
    /// was read with its user (only the wire fields travel with a user).
    public var sealedSecret: String?
    /// The newest 30 s step whose code was accepted: codes of it and older steps are refused.
    public var lastUsedStep: Int64?
    public var createdAt: Date
    public var updatedAt: Date
    public var lastChallengedAt: Date?
    /// The session that enrolled the factor: the only one that may verify it while it is not
    /// verified (`nil` for factors enrolled before this was recorded).
    public var enrolledSessionID: UUID?

    public init(
        id: UUID? = nil,
        userID: UUID,
        friendlyName: String,
        factorType: String = "totp",
        isVerified: Bool = false,
        sealedSecret: String?,
        lastUsedStep: Int64? = nil,
        createdAt: Date,
        updatedAt: Date,
        lastChallengedAt: Date? = nil,
        enrolledSessionID: UUID? = nil
    ) {
        self.id = id ?? .random()
        self.userID = userID
        self.friendlyName = friendlyName
        self.factorType = factorType
        self.isVerified = isVerified
        self.sealedSecret = sealedSecret
        self.lastUsedStep = lastUsedStep
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastChallengedAt = lastChallengedAt
        self.enrolledSessionID = enrolledSessionID
    }

    /// Whether an unverified factor waited too long for its first code (it is gone then).
    package func hasLapsed(at now: Date) -> Bool {
        !isVerified && now.timeIntervalSince(createdAt) > Self.enrolmentLifetime
    }

    /// The wire representation.
    public var wire: WireFactor {
        WireFactor(
            id: id,
            status: isVerified ? "verified" : "unverified",
            friendlyName: friendlyName,
            factorType: factorType,
            createdAt: createdAt,
            updatedAt: updatedAt,
            lastChallengedAt: lastChallengedAt
        )
    }
}
