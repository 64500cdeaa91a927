import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /token?grant_type=password`: e-mail and password.
///
/// Unknown e-mail and wrong password answer identically after exactly one bcrypt each (a dummy
/// hash for unknown users); every try is counted before its bcrypt and given back when right, so
/// failures slow further tries on the account from the same client network
/// (``FailedPasswordDelays``), never the owner elsewhere or a code sign-in. bcrypt runs
/// outside any transaction, so the user is read again inside it: a password change, ban or
/// deletion that landed meanwhile wins.
package struct PasswordSignIn: Sendable {
    let storage: any AuthStorage
    let passwords: PasswordHasher
    /// The growing delays after failed passwords.
    let delays: FailedPasswordDelays
    let sessions: SessionIssuer
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// Signs in, or throws 400 `invalid_credentials`, `email_not_confirmed`, `user_banned`, or 429.
    package func callAsFunction(_ body: PasswordGrantRequest, ip: String) async throws -> WireSession {
        try await AuthMetrics.countingSignIn(.password) { try await signIn(body, ip: ip) }
    }

    private func signIn(_ body: PasswordGrantRequest, ip: String) async throws -> WireSession {
        let now = now()
        guard let rawEmail = body.email, !body.password.isEmpty else { throw APIError.invalidCredentials }
        let email = rawEmail.trimmingWhiteSpace.lowercased()
        let attempt = try await delays.admit(account: email, client: ip, now: now)
        let user = try await storage.read { try await $0.user(email: email) }
        // Always one bcrypt verification, against a dummy hash for unknown users.
        let matches = try await passwords.verify(
            body.password,
            hash: body.password.utf8.count > 72 ? nil : user?.passwordHash
        )
        guard let user, matches else {
            try await storage.transaction { tx in
                try await audit.record(.loginFailed, actor: user?.id, ip: ip, in: tx)
            }
            throw APIError.invalidCredentials
        }
        await delays.succeeded(attempt, now: now)
        try Self.checkCanSignIn(user, now: now)
        let verified = user
        // A hash brought by an import (Firebase's scrypt, an older bcrypt) is replaced by one of
        // the server's own now that the password is known; the imported one is gone for good.
        var newHash: String?
        if let hash = user.passwordHash, passwords.needsRehash(hash) {
            newHash = try await passwords.hash(body.password)
        }
        let rehashed = newHash
        let grant = try await storage.transaction { tx in
            guard var current = try await tx.user(id: verified.id), current.passwordHash == verified.passwordHash
            else { throw APIError.invalidCredentials }
            try Self.checkCanSignIn(current, now: now)
            if let rehashed { current.passwordHash = rehashed }
            current.lastSignInAt = now
            current.updatedAt = now
            try await tx.updateUser(current)
            try await audit.record(.login, actor: current.id, ip: ip, in: tx)
            return try await sessions.open(
                for: current,
                method: .password,
                device: body.device,
                ip: ip,
                in: tx,
                at: now
            )
        }
        return try await sessions.answer(grant, now: now)
    }

    /// A user whose password matched may still not sign in: unconfirmed e-mail, or banned.
    private static func checkCanSignIn(_ user: UserRecord, now: Date) throws {
        if user.emailConfirmedAt == nil {
            throw APIError(.badRequest, .emailNotConfirmed, "Email not confirmed")
        }
        if user.isBanned(at: now) { throw APIError.userBanned }
    }
}
