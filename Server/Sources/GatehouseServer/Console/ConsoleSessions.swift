import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseStorage

/// Finds the operator behind a console cookie, or nobody: the console session must exist, be
/// under 12 hours old and used within 30 minutes; the session row it is bound to must still
/// exist (ending the operator's sessions ends it), still meet the table's proof for the console
/// (``SensitiveActionPolicy/admitsOperator(_:isOperator:)``: the operator role, and AAL2 or a
/// user-verifying passkey) and not be ended by time; the user must not be banned. Each request
/// moves the idle limit on.
struct ConsoleSessions: Sendable {
    let storage: any AuthStorage
    let secrets: ConsoleSecrets
    /// When sessions end by themselves.
    let lifetime: SessionLifetime
    let now: @Sendable () -> Date

    /// The longest a console session lasts.
    static let maximumAge: TimeInterval = 12 * 3600
    /// The longest a console session lasts without a request.
    static let idleLimit: TimeInterval = 30 * 60

    /// The operator whose cookie holds `token`, or `nil`.
    func signedIn(token: String) async throws -> ConsoleOperator? {
        let now = now()
        let hash = ConsoleSecrets.hash(token)
        let found = try await storage.read { reader -> (SessionRecord, UserRecord, Bool)? in
            guard let console = try await reader.consoleSession(tokenHash: hash),
                now.timeIntervalSince(console.createdAt) < Self.maximumAge,
                now.timeIntervalSince(console.lastSeenAt) < Self.idleLimit,
                let (session, user) = try await reader.sessionWithUser(id: console.sessionID),
                user.id == console.userID
            else { return nil }
            return (session, user, try await reader.isOperator(userID: user.id))
        }
        guard let (session, user, isOperator) = found,
            SensitiveActionPolicy.admitsOperator(session, isOperator: isOperator),
            !lifetime.hasEnded(session, at: now), !user.isBanned(at: now)
        else { return nil }
        try await storage.autocommit { tx in try await tx.touchConsoleSession(tokenHash: hash, at: now) }
        return ConsoleOperator(user: user, session: session, tokenHash: hash, csrf: secrets.csrf(for: token))
    }

    /// Ends the console session of `token` and the session row behind it.
    func signOut(token: String, ip: String, audit: AuditLog) async throws {
        let hash = ConsoleSecrets.hash(token)
        try await storage.transaction { tx in
            guard let console = try await tx.consoleSession(tokenHash: hash) else { return }
            _ = try await tx.deleteConsoleSession(tokenHash: hash)
            try await tx.deleteSession(id: console.sessionID)
            try await audit.record(.consoleSignedOut, actor: console.userID, ip: ip, in: tx)
        }
    }
}
