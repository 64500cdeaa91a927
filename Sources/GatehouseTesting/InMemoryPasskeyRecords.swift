import Foundation
import Gatehouse

/// A passkey as the in-memory backend keeps it.
struct PasskeyEntry {
    var id: UUID
    var credentialID: Data
    var key: InMemoryRelyingParty.PublicKey
    var signCount: UInt32
    var backupEligible: Bool
    var backedUp: Bool
    var name: String
    var createdAt: Date
    var lastUsedAt: Date?

    /// The listed form (never the key).
    var passkey: Passkey {
        Passkey(id: id, name: name.isEmpty ? nil : name, createdAt: createdAt, lastUsedAt: lastUsedAt)
    }
}

/// The challenge of one passkey ceremony: single use, five minutes.
struct PasskeyChallengeEntry {
    enum Kind { case registration, authentication }

    var kind: Kind
    /// The user a registration is for; `nil` for a sign-in.
    var userID: String?
    var challenge: Data
    var expiresAt: Date
}
