import Foundation
import GatehouseCore
import HTTPTypes

/// `POST /signup` with e-mail and password: a new account, confirmed by an e-mailed code (or
/// at once with autoconfirm).
///
/// Sign-up reveals nobody (`security.md` EN-4, OWN-5): a confirmed address gets a look-alike
/// of a new account's answer (same fields, one `email` identity, a random id) and no mail,
/// except under autoconfirm, where the answer would be a session. An unconfirmed address is
/// still pending (OWN-1): the newest sign-up's password replaces the pending one and a fresh
/// code goes out, bound to that password (``AddressProof``).
struct SignUp: Sendable {
    /// What sign-up answers: a session (autoconfirm) or the user waiting for confirmation.
    enum Answer: Sendable {
        case session(WireSession)
        case user(WireUser)
    }

    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    let limiter: any RateLimiter
    let delivery: CodeDelivery
    let sessions: SessionIssuer
    let audit: AuditLog
    let settings: SignUpSettings
    let now: @Sendable () -> Date

    func callAsFunction(_ body: SignUpRequest, ip: String) async throws -> Answer {
        let now = now()
        try settings.checkEnabled()
        try settings.metadataLimit.check(body.data)
        try await limiter.hit(.otp, key: ip, limit: settings.sendLimit, window: 300, now: now)
        let email = try EmailAddress.normalized(body.email)
        guard let password = body.password else { throw APIError.validation("Signup requires a valid password") }
        try policy.check(password, email: email)
        let hash = try await passwords.hash(password)
        let autoconfirm = settings.autoconfirm

        enum Outcome {
            case session(SessionGrant)
            case user(WireUser, Mail?)
        }
        let outcome: Outcome = try await storage.transaction { tx in
            if var existing = try await tx.user(email: email) {
                if existing.emailConfirmedAt != nil {
                    if autoconfirm {
                        throw APIError(.unprocessableContent, .userAlreadyExists, "User already registered")
                    }
                    // Answer as for a new address, so sign-up does not reveal who is registered.
                    return .user(Self.lookalike(email: email, data: body.data ?? [:], now: now), nil)
                }
                // An unproven address: the newest sign-up's password is the pending one (OWN-1).
                existing.passwordHash = hash
                existing.userMetadata = body.data ?? [:]
                existing.confirmationSentAt = now
                existing.updatedAt = now
                let mail = try await issueCode(for: &existing, in: tx, now: now)
                try await audit.record("user_repeated_signup", actor: existing.id, ip: ip, in: tx)
                return .user(existing.wire, mail)
            }
            var user = UserRecord(
                email: email,
                passwordHash: hash,
                appMetadata: ["provider": "email", "providers": ["email"]],
                userMetadata: body.data ?? [:],
                createdAt: now,
                updatedAt: now
            )
            if autoconfirm {
                user.emailConfirmedAt = now
                user.lastSignInAt = now
                try await tx.insertUser(user)
                try await audit.record("user_signedup", actor: user.id, ip: ip, in: tx)
                return .session(
                    try await sessions.open(for: user, method: "password", device: body.device, ip: ip, in: tx, at: now)
                )
            }
            user.confirmationSentAt = now
            try await tx.insertUser(user)
            let mail = try await issueCode(for: &user, in: tx, now: now)
            try await audit.record("user_signedup", actor: user.id, ip: ip, in: tx)
            return .user(user.wire, mail)
        }
        switch outcome {
        case .session(let grant):
            return .session(try await sessions.answer(grant, now: now))
        case .user(let user, let mail):
            delivery.send(mail)
            return .user(user)
        }
    }

    /// Mails the sign-up code and binds the pending password to it: only this code (or its
    /// resend) proves the password along with the address.
    private func issueCode(for user: inout UserRecord, in tx: any StorageTransaction, now: Date) async throws -> Mail? {
        let mail = try await delivery.issue(
            .signup,
            for: user.id,
            to: user.email ?? "",
            spacing: .ignore,
            in: tx,
            now: now
        )
        user.passwordCode = try await tx.code(userID: user.id, purpose: .signup)?.linkHash
        try await tx.updateUser(user)
        return mail
    }

    /// The answer for an address that is confirmed already: shaped exactly as a new sign-up's
    /// (a random id, an `email` identity), and never resolving to anyone (`security.md` EN-4, OWN-5).
    static func lookalike(email: String, data: [String: JSONValue], now: Date) -> WireUser {
        UserRecord(
            email: email,
            passwordHash: "",
            confirmationSentAt: now,
            appMetadata: ["provider": "email", "providers": ["email"]],
            userMetadata: data,
            createdAt: now,
            updatedAt: now
        ).wire
    }
}
