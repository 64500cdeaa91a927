public import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// `service_role` tokens for the admin API, made without running the server
/// (`gatehouse-server admin-token`): each has a lifetime and a `jti`, and can be revoked.
public enum ServiceRoleToken {
    /// The lifetime of an admin token unless another is chosen: 90 days.
    public static let defaultLifetime = 90 * 86_400

    /// A `service_role` token signed with the key the server signs with: the configured HS256
    /// secret, or the newest stored ES256 key (created, as at the server's first start, when
    /// there is none yet).
    ///
    /// - Parameters:
    ///   - configuration: The server's settings (issuer, JWT secret).
    ///   - database: The database the server uses; its server secret opens the signing key.
    ///   - lifetime: Seconds until the token expires.
    ///   - jti: The token's id, which ``revoke(jti:database:now:)`` takes.
    ///   - now: The issue time.
    /// - Returns: The signed token.
    public static func issue(
        configuration: ServerConfiguration,
        database: ServerDatabase,
        lifetime: Int = defaultLifetime,
        jti: String = UUID().uuidString,
        now: Date = Date()
    ) async throws -> String {
        try await TokenService.make(
            configuration: configuration,
            storage: database.storage,
            vault: SigningKeyVault(secret: database.serverSecret()),
            now: now
        )
        .serviceRoleToken(now: now, lifetime: lifetime, jti: jti)
    }

    /// Ends the admin token with id `jti` on every instance that uses `database`, at once.
    public static func revoke(jti: String, database: ServerDatabase, now: Date = Date()) async throws {
        try await database.storage.transaction { tx in
            try await tx.revokeToken(jti: jti, at: now)
            try await tx.appendAudit(AuditEntry(at: now, action: .adminTokenRevoked, detail: jti))
        }
    }

    /// Seconds from a lifetime such as `90d`, `12h`, `30m`, `45s` or `3600`; `nil` when it is
    /// not one (or not positive).
    public static func lifetime(from text: String) -> Int? {
        let units: [Character: Int] = ["d": 86_400, "h": 3600, "m": 60, "s": 1]
        var digits = Substring(text)
        var unit = 1
        if let last = text.last, let factor = units[last] {
            digits = text.dropLast()
            unit = factor
        }
        guard let count = Int(digits), count > 0, count <= Int(Int32.max) / unit else { return nil }
        return count * unit
    }
}
