public import Foundation
import GatehouseServerSupport

/// A challenge of a factor: one verify may answer it, from the address that created it, within
/// 300 s and with at most 5 codes.
public struct FactorChallengeRecord: Sendable, Equatable {
    /// How long a challenge waits for its code.
    public static let lifetime: TimeInterval = 300
    /// Codes a challenge takes before it dies.
    public static let maximumAttempts = 5

    public var id: UUID
    public var factorID: UUID
    public var userID: UUID
    /// The client address that created it (the verify must come from it).
    public var ip: String
    public var createdAt: Date
    public var expiresAt: Date
    public var attempts: Int

    public init(
        id: UUID? = nil,
        factorID: UUID,
        userID: UUID,
        ip: String,
        createdAt: Date,
        expiresAt: Date,
        attempts: Int = 0
    ) {
        self.id = id ?? .random()
        self.factorID = factorID
        self.userID = userID
        self.ip = ip
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}
