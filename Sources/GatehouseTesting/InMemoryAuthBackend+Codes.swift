import Foundation
public import Gatehouse

/// E-mailed codes: magic codes, password resets and verification, with the server's rules
/// (one pending code per user and purpose, spacing between sends, attempts, lifetime).
extension InMemoryAuthBackend {
    public func sendMagicCode(to email: String) async throws {
        try await enter(.sendMagicCode)
        let email = try normalized(email)
        let id: String
        if let existing = userID(forEmail: email) {
            id = existing
        } else {
            var user = User(id: UUID().uuidString.lowercased(), email: email, createdAt: now)
            user.appMetadata = ["provider": "email", "providers": ["email"]]
            accounts[user.id] = AccountRecord(user: user)
            id = user.id
        }
        if let wait = spacingLeft(forUser: id, type: .email) {
            let seconds = Int(wait.rounded(.up))
            throw AuthError(
                code: .overEmailSendRateLimit,
                message: "For security purposes, you can only request this after \(seconds) seconds.",
                recoverySuggestion: "Wait, then ask for a new code.",
                isRetryable: true,
                httpStatus: 429,
                retryAfter: TimeInterval(seconds)
            )
        }
        issueCode(to: email, forUser: id, type: .email)
    }

    public func resetPassword(email: String) async throws {
        try await enter(.resetPassword)
        let email = try normalized(email)
        // Unknown addresses get the same answer and no mail; a repeat within the spacing sends nothing.
        guard let id = userID(forEmail: email), spacingLeft(forUser: id, type: .recovery) == nil else { return }
        issueCode(to: email, forUser: id, type: .recovery)
    }

    public func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session {
        try await enter(.verifyCode)
        let email = try normalized(email)
        let expired = AuthError(
            code: .otpExpired,
            message: "The code is wrong or has expired.",
            recoverySuggestion: "Check the code, or request a new one.",
            httpStatus: 403
        )
        let purposes: [VerificationType]
        switch type {
        case .signup: purposes = [.signup]
        case .email, .magiclink: purposes = [.email, .signup]
        case .recovery, .emailChange: purposes = [type]
        default: throw AuthError.validationFailed("Unsupported verification type.")
        }
        // The address is the user's current one (for an e-mail change too, as on the server).
        guard let id = userID(forEmail: email) else { throw expired }
        var matched: (purpose: VerificationType, record: CodeRecord)?
        for purpose in purposes {
            guard var candidate = codes[id]?[purpose], candidate.expiresAt > now,
                candidate.attempts < configuration.maximumCodeAttempts
            else { continue }
            if candidate.code == code {
                matched = (purpose, candidate)
                break
            }
            candidate.attempts += 1
            codes[id]?[purpose] = candidate
        }
        guard let matched, var account = accounts[id] else { throw expired }
        try checkNotBanned(account)
        codes[id]?[matched.purpose] = nil
        if matched.purpose == .emailChange {
            account.user.email = matched.record.email
            account.user.emailConfirmedAt = now
        } else {
            account.user.emailConfirmedAt = account.user.emailConfirmedAt ?? now
        }
        if account.user.isAnonymous, account.user.email != nil { account.user.isAnonymous = false }
        accounts[id] = account
        return startSession(for: id)
    }

    /// Seconds until another code of `type` may go to the user, or `nil` when it may now.
    func spacingLeft(forUser id: String, type: VerificationType) -> TimeInterval? {
        guard let previous = codes[id]?[type] else { return nil }
        let left = configuration.minimumCodeInterval - now.timeIntervalSince(previous.sentAt)
        return left > 0 ? left : nil
    }

    /// Replaces the user's pending code of `type` with a new one and "e-mails" it.
    func issueCode(to email: String, forUser id: String, type: VerificationType) {
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        codes[id, default: [:]][type] = CodeRecord(
            code: code,
            email: email,
            sentAt: now,
            expiresAt: now.addingTimeInterval(configuration.codeLifetime)
        )
        sent.append(SentCode(email: email, code: code, type: type, sentAt: now))
    }
}
