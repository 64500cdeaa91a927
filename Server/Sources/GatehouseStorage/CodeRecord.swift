public import Foundation
import GatehouseServerSupport

/// A pending one-time code (one per user and purpose; a new one replaces the old).
public struct CodeRecord: Sendable, Equatable {
    public var userID: UUID
    public var purpose: CodePurpose
    /// HMAC of the e-mailed digits under the server secret.
    public var codeHash: String
    /// SHA-256 of the 256-bit link token (the link's `token_hash` is this value's preimage hash).
    public var linkHash: String
    /// The address the code was sent to (the new address for `email_change`).
    public var email: String
    public var expiresAt: Date
    public var attempts: Int
    public var createdAt: Date

    public init(
        userID: UUID,
        purpose: CodePurpose,
        codeHash: String,
        linkHash: String,
        email: String,
        expiresAt: Date,
        attempts: Int = 0,
        createdAt: Date
    ) {
        self.userID = userID
        self.purpose = purpose
        self.codeHash = codeHash
        self.linkHash = linkHash
        self.email = email
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.createdAt = createdAt
    }
}
