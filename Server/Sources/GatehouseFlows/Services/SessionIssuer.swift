import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// Opens sessions inside a transaction and, once it has committed, signs the answer.
///
/// Signing happens after the commit on purpose: it takes no database lock, and nothing is
/// signed for a grant that rolled back (see ``SessionGrant``).
struct SessionIssuer: Sendable {
    let tokens: TokenService
    let refreshTokens: RefreshTokenCodec

    /// Stores a new session for `user`, signed in by `method` from the client address `ip`, with
    /// the client's device label (``DeviceLabel``).
    ///
    /// - Returns: The grant to answer with after the commit (``answer(_:now:)``).
    func open(
        for user: UserRecord,
        method: AuthenticationMethod,
        provider: AuthProvider? = nil,
        device: String?,
        ip: String,
        in tx: any StorageTransaction,
        at now: Date
    ) async throws -> SessionGrant {
        let session = SessionRecord(
            userID: user.id,
            salt: Hex.encode(SecureRandom.bytes(16)),
            createdAt: now,
            refreshedAt: now,
            amr: [AMREntry(method: method, timestamp: Int(now.timeIntervalSince1970), provider: provider)],
            device: DeviceLabel.sanitized(device),
            createdIP: ip,
            refreshedIP: ip
        )
        try await tx.insertSession(session)
        return SessionGrant(user: user, session: session, counter: 0)
    }

    /// The response body for a committed grant: a signed access token and the refresh token.
    func answer(_ grant: SessionGrant, now: Date) async throws -> WireSession {
        let access = try await tokens.accessToken(for: grant.user, session: grant.session, now: now)
        return WireSession(
            accessToken: access,
            expiresIn: tokens.lifetime,
            expiresAt: Int(now.timeIntervalSince1970) + tokens.lifetime,
            refreshToken: refreshTokens.token(for: grant.session, counter: grant.counter),
            user: grant.user.withoutLapsedFactors(at: now).wire
        )
    }
}
