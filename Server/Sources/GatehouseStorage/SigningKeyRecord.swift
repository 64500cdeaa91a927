public import Foundation

/// A stored JWT signing key.
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    public var algorithm: String
    public var privatePEM: String
    public var createdAt: Date

    public init(kid: String, algorithm: String, privatePEM: String, createdAt: Date) {
        self.kid = kid
        self.algorithm = algorithm
        self.privatePEM = privatePEM
        self.createdAt = createdAt
    }
}
