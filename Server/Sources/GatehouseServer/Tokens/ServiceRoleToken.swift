public import Foundation

/// `service_role` tokens for the admin API, made without running the server
/// (`gatehouse-server admin-token`).
public enum ServiceRoleToken {
    /// A `service_role` token signed with the key the server signs with: the configured HS256
    /// secret, or the newest stored ES256 key (created, as at the server's first start, when
    /// there is none yet).
    ///
    /// - Parameters:
    ///   - configuration: The server's settings (issuer, JWT secret).
    ///   - storage: The database the server uses (see ``ServerDatabase``).
    ///   - now: The issue time.
    /// - Returns: The signed token.
    public static func issue(
        configuration: ServerConfiguration,
        storage: any AuthStorage,
        now: Date = Date()
    ) async throws -> String {
        try await TokenService.make(configuration: configuration, storage: storage, now: now).serviceRoleToken(now: now)
    }
}
