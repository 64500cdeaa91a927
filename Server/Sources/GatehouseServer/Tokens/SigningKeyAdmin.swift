public import Foundation
import JWTKit

/// Offline key management for `gatehouse-server keys …`: rotation adds a new ES256 key that
/// signs from the next start on, while older keys keep verifying (they stay in the JWKS) until
/// they are retired.
public enum SigningKeyAdmin {
    /// The stored keys, oldest first; the newest signs.
    public static func list(storage: any AuthStorage) async throws -> [SigningKeyRecord] {
        try await storage.read { try await $0.signingKeys() }
    }

    /// Adds a new ES256 key, which signs from the next start on. - Returns: its `kid`.
    @discardableResult
    public static func rotate(storage: any AuthStorage, now: Date = Date()) async throws -> String {
        let key = ES256PrivateKey()
        let record = SigningKeyRecord(
            kid: Hex.encode(Hex.randomBytes(8)),
            algorithm: "ES256",
            privatePEM: key.pemRepresentation,
            createdAt: now
        )
        try await storage.transaction { tx in
            try await tx.insertSigningKey(record)
            try await tx.appendAudit(AuditEntry(at: now, action: "signing_key_rotated", detail: record.kid))
        }
        return record.kid
    }

    /// Removes a key that no longer signs; tokens it signed stop verifying at the next start.
    public static func retire(kid: String, storage: any AuthStorage, now: Date = Date()) async throws {
        try await storage.transaction { tx in
            let keys = try await tx.signingKeys()
            guard let newest = keys.max(by: { $0.createdAt < $1.createdAt }), keys.contains(where: { $0.kid == kid })
            else {
                throw ConfigurationError(variable: "kid", problem: "names no stored key")
            }
            guard newest.kid != kid else {
                throw ConfigurationError(variable: "kid", problem: "is the signing key; rotate first")
            }
            _ = try await tx.deleteSigningKey(kid: kid)
            try await tx.appendAudit(AuditEntry(at: now, action: "signing_key_retired", detail: kid))
        }
    }
}
