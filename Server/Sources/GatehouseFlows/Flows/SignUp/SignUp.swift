import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /signup` with e-mail and password: a new account, confirmed by an e-mailed code (or
/// at once with autoconfirm).
///
/// Sign-up reveals nobody (`security.md` EN-4, OWN-5): an address that has an account already
/// (confirmed, or pending another sign-up's confirmation) gets a look-alike of a new account's
/// answer (same fields, one `email` identity, a random id), except under autoconfirm, where a
/// confirmed address gets `user_already_exists`; every sign-up that could mail counts against the
/// mail budgets alike (``MailBudget``, a sign-up mail).
///
/// An unconfirmed address is still pending (OWN-1): the code a sign-up mails proves its password
/// with the address (``AddressProof``). A second sign-up for an address whose pending password
/// came from another sign-up contests it: neither password is the account's (the pending one is
/// kept unbound, the new one is not stored), and the fresh code proves the address only, so
/// confirming it drops the pending password, ends the account's sessions and signs the confirmer
/// in to set a password.
package struct SignUp: Sendable {
    /// What sign-up answers: a session (autoconfirm) or the user waiting for confirmation.
    package enum Answer: Sendable {
        case session(WireSession)
        case user(WireUser)
    }

    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    let rateLimits: RateLimits
    let delivery: CodeDelivery
    let sessions: SessionIssuer
    let audit: AuditLog
    let settings: SignUpSettings
    let now: @Sendable () -> Date

    /// Signs up; with `pkce`, the mailed link's `GET /verify` answers with a code for the
    /// verifier's holder instead of a session.
    package func callAsFunction(_ body: SignUpRequest, pkce: EmailPKCE? = nil, ip: String) async throws -> Answer {
        let answer = try await signUp(body, pkce: pkce, ip: ip)
        // Counted also when the address was registered already (the answer must not tell).
        AuthMetrics.signUp(.password)
        return answer
    }

    private func signUp(_ body: SignUpRequest, pkce: EmailPKCE?, ip: String) async throws -> Answer {
        let now = now()
        try settings.checkEnabled()
        try settings.metadataLimit.check(body.data)
        try await rateLimits.hit(.otp, key: ip, now: now)
        let email = try EmailAddress.normalized(body.email)
        guard let password = body.password else { throw APIError.validation("Signup requires a valid password") }
        try policy.check(password, email: email)
        let autoconfirm = settings.autoconfirm
        // Counted alike for new, pending and confirmed addresses; given back when nothing is mailed.
        let admitted =
            autoconfirm
            ? nil : try await delivery.admit(email, recipient: .unconfirmed, kind: .signUp, client: ip, now: now)
        let hash = try await passwords.hash(password)

        enum Outcome {
            case session(SessionGrant)
            case user(WireUser, IssuedCode?)
        }
        let outcome: Outcome
        do {
            outcome = try await storage.transaction { tx in
                if var existing = try await tx.user(email: email) {
                    if existing.emailConfirmedAt != nil {
                        if autoconfirm {
                            throw APIError(.unprocessableContent, .userAlreadyExists, "User already registered")
                        }
                        // Answer as for a new address, so sign-up does not reveal who is registered.
                        return .user(Self.lookalike(email: email, data: body.data ?? [:], now: now), nil)
                    }
                    let contested = existing.passwordHash != nil
                    if !contested {
                        // No sign-up set a password yet (a code sign-in's account): this one's is pending.
                        existing.passwordHash = hash
                        existing.userMetadata = body.data ?? [:]
                    }
                    existing.confirmationSentAt = now
                    existing.updatedAt = now
                    let mail = try await issueCode(
                        for: &existing,
                        to: admitted,
                        bindingPassword: !contested,
                        pkce: pkce,
                        in: tx,
                        now: now
                    )
                    try await audit.record(.userRepeatedSignUp, actor: existing.id, ip: ip, in: tx)
                    return .user(Self.lookalike(email: email, data: body.data ?? [:], now: now), mail)
                }
                var user = UserRecord.emailAccount(email, passwordHash: hash, metadata: body.data, now: now)
                if autoconfirm {
                    user.emailConfirmedAt = now
                    user.lastSignInAt = now
                    try await tx.insertUser(user)
                    try await audit.record(.userSignedUp, actor: user.id, ip: ip, in: tx)
                    return .session(
                        try await sessions.open(
                            for: user,
                            method: .password,
                            device: body.device,
                            ip: ip,
                            in: tx,
                            at: now
                        )
                    )
                }
                user.confirmationSentAt = now
                try await tx.insertUser(user)
                let issued = try await issueCode(
                    for: &user,
                    to: admitted,
                    bindingPassword: true,
                    pkce: pkce,
                    in: tx,
                    now: now
                )
                try await audit.record(.userSignedUp, actor: user.id, ip: ip, in: tx)
                return .user(user.wire, issued)
            }
        } catch {
            if let admitted { await delivery.send(nil, admitted: admitted) }
            throw error
        }
        switch outcome {
        case .session(let grant):
            return .session(try await sessions.answer(grant, now: now))
        case .user(let user, let issued):
            if let admitted { await delivery.send(issued, admitted: admitted) }
            return .user(user)
        }
    }

    /// Mails the sign-up code; with `bindingPassword`, binds the pending password to it: only
    /// this code (or its resend) proves the password along with the address. Otherwise no code
    /// proves it (a contested sign-up).
    private func issueCode(
        for user: inout UserRecord,
        to admitted: MailBudget.Admission?,
        bindingPassword: Bool,
        pkce: EmailPKCE?,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> IssuedCode? {
        guard let admitted else { return nil }
        let issued = try await delivery.issue(
            .signup,
            for: user.id,
            to: admitted,
            spacing: .ignore,
            pkce: pkce,
            in: tx,
            now: now
        )
        user.passwordCode = bindingPassword ? issued?.record.linkHash : nil
        try await tx.updateUser(user)
        return issued
    }

    /// The answer for an address that has an account already: shaped exactly as a new sign-up's
    /// (a random id, an `email` identity), and never resolving to anyone (`security.md` EN-4, OWN-5).
    static func lookalike(email: String, data: [String: JSONValue], now: Date) -> WireUser {
        UserRecord.emailAccount(email, passwordHash: "", confirmationSentAt: now, metadata: data, now: now).wire
    }
}
