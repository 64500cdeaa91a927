package import Foundation
import GatehouseServerSupport

extension SQLTransaction {
    package static let flowStateColumns = """
        id, state_hash, link_hash, auth_code_hash, provider, authentication_method, redirect_to, code_challenge,
        code_challenge_method, provider_verifier, nonce, user_id, linking_user_id, linking_session_id,
        provider_tokens, created_at, expires_at
        """

    package func insertFlowState(_ flow: FlowStateRecord) async throws {
        _ = try await query(
            """
            INSERT INTO flow_states (\(Self.flowStateColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(flow.id.key), Self.optional(flow.stateHash), Self.optional(flow.linkHash),
                Self.optional(flow.authCodeHash), .text(flow.provider.rawValue), .text(flow.authenticationMethod.rawValue),
                .text(flow.redirectTo), Self.optional(flow.codeChallenge), Self.optional(flow.codeChallengeMethod),
                Self.optional(flow.providerVerifier), Self.optional(flow.nonce), Self.optional(flow.userID?.key),
                Self.optional(flow.linkingUserID?.key), Self.optional(flow.linkingSessionID?.key),
                Self.optional(flow.sealedProviderTokens), .float(flow.createdAt.timeIntervalSince1970),
                .float(flow.expiresAt.timeIntervalSince1970),
            ]
        )
    }

    package func claimFlowState(stateHash: String) async throws -> FlowStateRecord? {
        // The row as it was: RETURNING gives the updated row, so the hash comes from the bind.
        try await query(
            "UPDATE flow_states SET state_hash = NULL WHERE state_hash = ? RETURNING \(Self.flowStateColumns)",
            [.text(stateHash)]
        ).first.map { row in
            var flow = try FlowStateRecord(row: row)
            flow.stateHash = stateHash
            return flow
        }
    }

    package func flowState(linkHash: String) async throws -> FlowStateRecord? {
        try await query("SELECT \(Self.flowStateColumns) FROM flow_states WHERE link_hash = ?", [.text(linkHash)])
            .first.map { try FlowStateRecord(row: $0) }
    }

    package func flowState(authCodeHash: String) async throws -> FlowStateRecord? {
        try await query(
            "SELECT \(Self.flowStateColumns) FROM flow_states WHERE auth_code_hash = ?",
            [.text(authCodeHash)]
        ).first.map { try FlowStateRecord(row: $0) }
    }

    package func updateFlowState(_ flow: FlowStateRecord) async throws {
        _ = try await query(
            """
            UPDATE flow_states SET auth_code_hash = ?, authentication_method = ?, user_id = ?, provider_tokens = ?,
            expires_at = ? WHERE id = ?
            """,
            [
                Self.optional(flow.authCodeHash), .text(flow.authenticationMethod.rawValue),
                Self.optional(flow.userID?.key), Self.optional(flow.sealedProviderTokens),
                .float(flow.expiresAt.timeIntervalSince1970), .text(flow.id.key),
            ]
        )
    }

    package func deleteFlowState(id: UUID) async throws -> Bool {
        !(try await query("DELETE FROM flow_states WHERE id = ? RETURNING id", [.text(id.key)])).isEmpty
    }

    private static func optional(_ text: String?) -> SQLValue {
        text.map(SQLValue.text) ?? .null
    }
}

extension FlowStateRecord {
    /// The flow of `row` (``SQLTransaction/flowStateColumns``).
    ///
    /// - Throws: ``StoredValueError`` when its `authentication_method` is not one this server knows.
    package init(row: SQLRow) throws {
        self.init(
            id: try row.uuid("id", of: "flow_states"),
            stateHash: row.column("state_hash")?.string,
            linkHash: row.column("link_hash")?.string,
            authCodeHash: row.column("auth_code_hash")?.string,
            provider: AuthProvider(rawValue: try row.text("provider", of: "flow_states")),
            authenticationMethod: try StoredValueError.decode(
                row.column("authentication_method")?.string,
                as: AuthenticationMethod.self,
                column: "flow_states.authentication_method"
            ),
            redirectTo: try row.text("redirect_to", of: "flow_states"),
            codeChallenge: row.column("code_challenge")?.string,
            codeChallengeMethod: row.column("code_challenge_method")?.string,
            providerVerifier: row.column("provider_verifier")?.string,
            nonce: row.column("nonce")?.string,
            userID: row.column("user_id")?.string.flatMap(UUID.init(text:)),
            linkingUserID: row.column("linking_user_id")?.string.flatMap(UUID.init(text:)),
            linkingSessionID: row.column("linking_session_id")?.string.flatMap(UUID.init(text:)),
            sealedProviderTokens: row.column("provider_tokens")?.string,
            createdAt: try row.date("created_at", of: "flow_states"),
            expiresAt: try row.date("expires_at", of: "flow_states")
        )
    }
}
