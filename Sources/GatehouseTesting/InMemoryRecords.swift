import Foundation
import Gatehouse

/// An account as the in-memory backend keeps it.
struct AccountRecord {
    var user: User
    var passwordHash: SaltedHash?
    var bannedUntil: Date?
    var identities: [IdentityKey] = []
}

/// A linked provider identity.
struct IdentityKey: Hashable {
    var provider: String
    var subject: String
}

/// A server-side session and its refresh-token family.
struct SessionRecord {
    var id: String
    var userID: String
    var currentRefreshToken: String
    /// The token the current one replaced.
    var parentRefreshToken: String?
    /// When each earlier token of the family was rotated away.
    var rotatedAt: [String: Date] = [:]
}

/// An issued access token.
struct AccessRecord {
    var sessionID: String
    var userID: String
    var expiresAt: Date
}

/// A pending e-mailed code.
struct CodeRecord {
    var code: String
    var expiresAt: Date
    var attempts = 0
}

/// What a fake ID token stands for.
struct IDTokenClaims {
    var provider: IDTokenCredential.Provider
    var subject: String
    var email: String?
    var emailVerified: Bool
    var nonceHash: String?
}
