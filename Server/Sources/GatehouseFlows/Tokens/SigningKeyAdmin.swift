public import Foundation
import GatehouseCore
import GatehouseServerSupport
public import GatehouseStorage
import JWTKit

/// Offline key management for `gatehouse-server keys …`: rotation adds a new ES256 key that
/// signs from the next start on, while older keys keep verifying (they stay in the JWKS) until
/// they are retired.
public enum SigningKeyAdmin {
    /// The stored keys, oldest first; the newest signs.
    public static func list(storage: any AuthStorage) async throws -> [SigningKeyRecord] {
        try await storage.read { try await $0.signingKeys() }
    }

    /// Adds a new ES256 key, sealed under the database's server secret, which signs from the
    /// next start on. - Returns: its `kid`.
    @discardableResult
    public static func rotate(database: ServerDatabase, now: Date = Date()) async throws -> String {
        try await rotate(storage: database.storage, vault: SigningKeyVault(secret: database.serverSecret()), now: now)
    }

    /// Adds a new ES256 key sealed by `vault`. - Returns: its `kid`.
    package static func rotate(
        storage: any AuthStorage,
        vault: SigningKeyVault,
        now: Date,
        actor: UUID? = nil,
        ip: String? = nil
    ) async throws -> String {
        let kid = Hex.encode(SecureRandom.bytes(8))
        let record = SigningKeyRecord(
            kid: kid,
            algorithm: "ES256",
            privatePEM: try vault.seal(ES256PrivateKey().pemRepresentation, kid: kid),
            createdAt: now
        )
        try await storage.transaction { tx in
            try await tx.insertSigningKey(record)
            try await tx.appendAudit(
                AuditEntry(at: now, action: .signingKeyRotated, actorID: actor, ip: ip, detail: record.kid)
            )
        }
        return record.kid
    }

    /// Removes a key that no longer signs; tokens it signed stop verifying at the next start.
    ///
    /// - Throws: ``RetireError`` when `kid` names no stored key or names the signing key.
    public static func retire(kid: String, storage: any AuthStorage, now: Date = Date()) async throws {
        try await retire(kid: kid, storage: storage, now: now, actor: nil, ip: nil)
    }

    /// Retires `kid` on behalf of `actor` (a console operator) from `ip`.
    package static func retire(kid: String, storage: any AuthStorage, now: Date, actor: UUID?, ip: String?) async throws
    {
        try await storage.transaction { tx in
            let keys = try await tx.signingKeys()
            guard let newest = keys.max(by: { $0.createdAt < $1.createdAt }), keys.contains(where: { $0.kid == kid })
            else {
                throw RetireError(kid: kid, reason: .unknownKey)
            }
            guard newest.kid != kid else { throw RetireError(kid: kid, reason: .signingKey) }
            _ = try await tx.deleteSigningKey(kid: kid)
            try await tx.appendAudit(
                AuditEntry(at: now, action: .signingKeyRetired, actorID: actor, ip: ip, detail: kid)
            )
        }
    }
}

extension SigningKeyAdmin {
    /// Why ``SigningKeyAdmin/retire(kid:storage:now:)`` refused a kid: an operator's input, not
    /// the server's configuration.
    public struct RetireError: Error, CustomStringConvertible, Equatable {
        /// What is wrong with the kid.
        public enum Reason: Sendable, Equatable {
            /// No stored key has this kid.
            case unknownKey
            /// The kid names the key that signs; rotate first.
            case signingKey
        }

        /// The kid the operator named.
        public var kid: String
        /// What is wrong with it.
        public var reason: Reason

        /// An error for `kid`.
        public init(kid: String, reason: Reason) {
            self.kid = kid
            self.reason = reason
        }

        /// The operator's message, naming the kid.
        public var description: String {
            switch reason {
            case .unknownKey: "\(kid) names no stored key"
            case .signingKey: "\(kid) is the signing key; rotate first"
            }
        }
    }
}
