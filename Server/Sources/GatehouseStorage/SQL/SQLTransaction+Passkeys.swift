package import Foundation
import GatehouseCore
import GatehouseServerSupport

extension SQLTransaction {
    package static let passkeyColumns = """
        id, user_id, credential_id, public_key, algorithm, attestation_type, aaguid, sign_count, transports,
        backup_eligible, backed_up, friendly_name, created_at, updated_at, last_used_at
        """

    package func passkeys(userID: UUID) async throws -> [PasskeyRecord] {
        try await query(
            "SELECT \(Self.passkeyColumns) FROM webauthn_credentials WHERE user_id = ? ORDER BY created_at, id",
            [.text(userID.key)]
        ).map(passkey(from:))
    }

    package func passkey(credentialID: String) async throws -> PasskeyRecord? {
        try await query(
            "SELECT \(Self.passkeyColumns) FROM webauthn_credentials WHERE credential_id = ?",
            [.text(credentialID)]
        ).first.map(passkey(from:))
    }

    package func insertPasskey(_ passkey: PasskeyRecord) async throws {
        do {
            _ = try await query(
                "INSERT INTO webauthn_credentials (\(Self.passkeyColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(passkey.id.key), .text(passkey.userID.key), .text(passkey.credentialID),
                    .text(passkey.publicKey), .integer(passkey.algorithm), .text(passkey.attestationType),
                    .text(passkey.aaguid), .integer(Int(passkey.signCount)), .text(JSONText.encode(passkey.transports)),
                    .integer(passkey.backupEligible ? 1 : 0), .integer(passkey.backedUp ? 1 : 0),
                    .text(passkey.friendlyName), .float(passkey.createdAt.timeIntervalSince1970),
                    .float(passkey.updatedAt.timeIntervalSince1970), .date(passkey.lastUsedAt),
                ]
            )
        } catch SQLError.uniqueViolation {
            throw StorageError.duplicatePasskey
        }
    }

    package func updatePasskey(_ passkey: PasskeyRecord) async throws {
        _ = try await query(
            """
            UPDATE webauthn_credentials SET friendly_name = ?, sign_count = ?, backed_up = ?, updated_at = ?,
            last_used_at = ? WHERE id = ?
            """,
            [
                .text(passkey.friendlyName), .integer(Int(passkey.signCount)), .integer(passkey.backedUp ? 1 : 0),
                .float(passkey.updatedAt.timeIntervalSince1970), .date(passkey.lastUsedAt), .text(passkey.id.key),
            ]
        )
    }

    package func deletePasskey(id: UUID, userID: UUID) async throws -> Bool {
        !(try await query(
            "DELETE FROM webauthn_credentials WHERE id = ? AND user_id = ? RETURNING id",
            [.text(id.key), .text(userID.key)]
        ).isEmpty)
    }

    package func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) async throws {
        _ = try await query("DELETE FROM webauthn_challenges WHERE expires_at < ?", [.date(challenge.createdAt)])
        _ = try await query(
            "INSERT INTO webauthn_challenges (id, user_id, kind, challenge, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(challenge.id.key), challenge.userID.map { .text($0.key) } ?? .null,
                .text(challenge.kind.rawValue),
                .text(challenge.challenge), .float(challenge.createdAt.timeIntervalSince1970),
                .float(challenge.expiresAt.timeIntervalSince1970),
            ]
        )
    }

    package func consumeWebAuthnChallenge(
        id: UUID,
        kind: WebAuthnChallengeRecord.Kind,
        userID: UUID?
    ) async throws -> WebAuthnChallengeRecord? {
        var binds: [SQLValue] = [.text(id.key), .text(kind.rawValue)]
        if let userID { binds.append(.text(userID.key)) }
        let rows = try await query(
            """
            DELETE FROM webauthn_challenges WHERE id = ? AND kind = ? AND \(userID == nil ? "user_id IS NULL" : "user_id = ?")
            RETURNING id, user_id, kind, challenge, created_at, expires_at
            """,
            binds
        )
        return try rows.first.map { row in
            WebAuthnChallengeRecord(
                id: id,
                userID: row.column("user_id")?.string.flatMap(UUID.init(uuidString:)),
                kind: kind,
                challenge: try row.text("challenge", of: "webauthn_challenges"),
                createdAt: try row.date("created_at", of: "webauthn_challenges"),
                expiresAt: try row.date("expires_at", of: "webauthn_challenges")
            )
        }
    }

    package func addSessionMethod(_ entry: AMREntry, sessionID: UUID) async throws {
        guard let session = try await session(id: sessionID) else { return }
        let amr = [entry] + session.amr.filter { $0.method != entry.method }
        _ = try await query(
            "UPDATE sessions SET amr = ? WHERE id = ?",
            [.text(AMRText.text(amr)), .text(sessionID.key)]
        )
    }

    package func passkey(from row: SQLRow) throws -> PasskeyRecord {
        PasskeyRecord(
            id: try row.uuid("id", of: "webauthn_credentials"),
            userID: try row.uuid("user_id", of: "webauthn_credentials"),
            credentialID: try row.text("credential_id", of: "webauthn_credentials"),
            publicKey: try row.text("public_key", of: "webauthn_credentials"),
            algorithm: try row.integer("algorithm", of: "webauthn_credentials"),
            attestationType: try row.text("attestation_type", of: "webauthn_credentials"),
            aaguid: try row.text("aaguid", of: "webauthn_credentials"),
            signCount: Int64(try row.integer("sign_count", of: "webauthn_credentials")),
            transports: try row.jsonStrings("transports", of: "webauthn_credentials"),
            backupEligible: (try row.integer("backup_eligible", of: "webauthn_credentials")) != 0,
            backedUp: (try row.integer("backed_up", of: "webauthn_credentials")) != 0,
            friendlyName: try row.text("friendly_name", of: "webauthn_credentials"),
            createdAt: try row.date("created_at", of: "webauthn_credentials"),
            updatedAt: try row.date("updated_at", of: "webauthn_credentials"),
            lastUsedAt: row.date("last_used_at")
        )
    }
}
