package import Foundation
import GatehouseCore
import GatehouseServerSupport

extension SQLTransaction {
    package static let identityColumns =
        "id, user_id, provider, provider_id, email, identity_data, last_sign_in_at, created_at, updated_at"

    package func identity(provider: AuthProvider, subject: String) async throws -> IdentityRecord? {
        try await query(
            "SELECT \(Self.identityColumns) FROM identities WHERE provider = ? AND provider_id = ?",
            [.text(provider.rawValue), .text(subject)]
        ).first.map(identity(from:))
    }

    package func insertIdentity(_ identity: IdentityRecord) async throws {
        do {
            _ = try await query(
                "INSERT INTO identities (\(Self.identityColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                Self.identityBinds(identity)
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicateIdentity
        }
    }

    package static func identityBinds(_ identity: IdentityRecord) -> [SQLValue] {
        [
            .text(identity.id.key), .text(identity.userID.key), .text(identity.provider.rawValue),
            .text(identity.subject), identity.email.map(SQLValue.text) ?? .null,
            .text(JSONText.encode(identity.data)), .date(identity.lastSignInAt),
            .float(identity.createdAt.timeIntervalSince1970), .float(identity.updatedAt.timeIntervalSince1970),
        ]
    }

    package func updateIdentity(_ identity: IdentityRecord) async throws {
        _ = try await query(
            "UPDATE identities SET email = ?, identity_data = ?, last_sign_in_at = ?, updated_at = ? WHERE id = ?",
            [
                identity.email.map(SQLValue.text) ?? .null, .text(JSONText.encode(identity.data)),
                .date(identity.lastSignInAt), .float(identity.updatedAt.timeIntervalSince1970), .text(identity.id.key),
            ]
        )
    }

    package func deleteIdentity(id: UUID, userID: UUID) async throws -> Bool {
        !(try await query(
            "DELETE FROM identities WHERE id = ? AND user_id = ? RETURNING id",
            [.text(id.key), .text(userID.key)]
        ).isEmpty)
    }

    package func consumeNonce(provider: AuthProvider, hash: String, expiresAt: Date, now: Date) async throws -> Bool {
        _ = try await query("DELETE FROM used_nonces WHERE expires_at < ?", [.date(now)])
        let inserted = try await query(
            """
            INSERT INTO used_nonces (provider, nonce_hash, expires_at) VALUES (?, ?, ?)
            ON CONFLICT (provider, nonce_hash) DO NOTHING RETURNING nonce_hash
            """,
            [.text(provider.rawValue), .text(hash), .date(expiresAt)]
        )
        return !inserted.isEmpty
    }

    /// Identities from the `identities_json` column of a user read.
    package static func identities(fromJSON text: String?) throws -> [IdentityRecord] {
        try JSONText.rows(text, column: "users.identities_json").map(IdentityRecord.init(row:))
    }

    package func identity(from row: SQLRow) throws -> IdentityRecord {
        try IdentityRecord(row: row)
    }
}

extension IdentityRecord {
    package init(row: SQLRow) throws {
        self.init(
            id: try row.uuid("id", of: "identities"),
            userID: try row.uuid("user_id", of: "identities"),
            provider: AuthProvider(rawValue: try row.text("provider", of: "identities")),
            subject: try row.text("provider_id", of: "identities"),
            email: row.column("email")?.string,
            data: try row.jsonObject("identity_data", of: "identities"),
            lastSignInAt: row.date("last_sign_in_at"),
            createdAt: try row.date("created_at", of: "identities"),
            updatedAt: try row.date("updated_at", of: "identities")
        )
    }
}
