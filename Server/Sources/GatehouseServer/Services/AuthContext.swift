import Foundation
import GatehouseCore
import Logging

/// Everything the controllers share: configuration, storage, token and code services, the
/// password hasher, rate limits, mail and the clock.
public struct AuthContext: Sendable {
    let configuration: ServerConfiguration
    let storage: any AuthStorage
    let tokens: TokenService
    let refreshTokens: RefreshTokenCodec
    let codes: OneTimeCodes
    let passwords: PasswordHasher
    let policy: PasswordPolicy
    let limiter: any RateLimiter
    let mailer: any Mailer
    /// ID-token verifiers of the enabled providers.
    let idTokens: [IdentityProvider: IDTokenVerifier]
    let now: @Sendable () -> Date
    let logger: Logger

    /// Opens sessions and signs committed grants.
    var sessions: SessionIssuer { SessionIssuer(tokens: tokens, refreshTokens: refreshTokens) }

    /// The audit log on this context's clock.
    var auditLog: AuditLog { AuditLog(now: now) }

    /// Stores a new session for `user`, signed in by `method` (see ``SessionIssuer``).
    func issueSession(
        for user: UserRecord,
        method: String,
        in tx: any StorageTransaction,
        at now: Date
    )
        async throws -> SessionGrant
    {
        try await sessions.open(for: user, method: method, in: tx, at: now)
    }

    /// The response body for a committed grant (see ``SessionIssuer``).
    func wireSession(_ grant: SessionGrant, now: Date) async throws -> WireSession {
        try await sessions.answer(grant, now: now)
    }

    /// Sends mail off the request path, so that answers take the same time whether or not a
    /// message goes out; failures are logged without the code.
    func sendLater(_ mail: Mail) {
        let mailer = self.mailer
        let logger = self.logger
        Task.detached {
            do {
                try await mailer.send(mail)
            } catch {
                logger.error("Mail delivery failed", metadata: ["mail.subject": .string(mail.subject)])
            }
        }
    }

    /// A code e-mail.
    func codeMail(to email: String, purpose: String, code: String, link: String) -> Mail {
        let subject: String
        switch purpose {
        case "signup": subject = "Confirm your sign-up"
        case "recovery": subject = "Reset your password"
        case "email_change": subject = "Confirm your new e-mail address"
        case "reauthentication": subject = "Confirm it is you"
        case "invite": subject = "You have been invited"
        default: subject = "Your sign-in code"
        }
        let type = purpose == "email" ? "magiclink" : purpose
        let minutes = Int(configuration.codeLifetime / 60)
        let body = """
            Your code is \(code). It expires in \(minutes) minutes and works once.
            Or open: \(configuration.siteURL)/verify?token=\(link)&type=\(type)
            If you did not ask for this, ignore this message.
            """
        return Mail(to: email, subject: subject, body: body, code: code)
    }

    func audit(
        _ action: String,
        actor: UUID?,
        ip: String?,
        detail: String? = nil,
        in tx: any StorageTransaction
    )
        async throws
    {
        try await tx.appendAudit(AuditEntry(at: now(), action: action, actorID: actor, ip: ip, detail: detail))
    }
}
