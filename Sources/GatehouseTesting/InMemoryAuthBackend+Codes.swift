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
        if let wait = spacingLeft(forUser: id, type: .email) { throw Self.sendSpacing(wait) }
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
        case .recovery: purposes = [.recovery]
        case .emailChange: purposes = [.emailChange, .emailChangeCurrent]
        default: throw AuthError.validationFailed("Unsupported verification type.")
        }
        // A new address is no one's yet: its codes are found by where they were sent.
        var candidates: [(id: String, purpose: VerificationType)] = []
        for purpose in purposes {
            if purpose == .emailChange {
                candidates += codes.filter { $0.value[purpose]?.email == email }.map { ($0.key, purpose) }
            } else if let id = userID(forEmail: email) {
                candidates.append((id, purpose))
            }
        }
        var matched: (id: String, purpose: VerificationType, record: CodeRecord)?
        for (id, purpose) in candidates {
            guard var candidate = codes[id]?[purpose], candidate.expiresAt > now,
                candidate.attempts < configuration.maximumCodeAttempts
            else { continue }
            if candidate.code == code {
                matched = (id, purpose, candidate)
                break
            }
            candidate.attempts += 1
            codes[id]?[purpose] = candidate
        }
        guard let matched, var account = accounts[matched.id] else { throw expired }
        let id = matched.id
        try checkNotBanned(account)
        if matched.purpose == .emailChange || matched.purpose == .emailChangeCurrent {
            try completeEmailChange(&account, id: id, verified: matched.purpose)
        } else {
            codes[id]?[matched.purpose] = nil
            // An unproven password survives only the code of the sign-up that set it (OWN-1).
            if account.user.emailConfirmedAt == nil, account.passwordHash != nil,
                !(matched.purpose == .signup && matched.record.code == account.passwordCode)
            {
                account.passwordHash = nil
                endSessions { $0.userID == id }
            }
            account.passwordCode = nil
            account.user.emailConfirmedAt = account.user.emailConfirmedAt ?? now
        }
        accounts[id] = account
        return startSession(for: id, method: "otp")
    }

    /// One side of an e-mail change verified: completes it when the other side is done too,
    /// or throws `AuthError.emailChangeConfirmationPending()`.
    private func completeEmailChange(_ account: inout AccountRecord, id: String, verified: VerificationType) throws {
        let other: VerificationType = verified == .emailChange ? .emailChangeCurrent : .emailChange
        codes[id]?[verified] = nil
        if codes[id]?[other] != nil { throw AuthError.emailChangeConfirmationPending() }
        guard let newEmail = account.user.newEmail else { throw Self.emailExists() }
        if let holder = userID(forEmail: newEmail), holder != id { throw Self.emailExists() }
        account.user.email = newEmail
        account.user.emailConfirmedAt = now
        account.user.newEmail = nil
        account.passwordCode = nil
        if account.user.isAnonymous {
            account.user.isAnonymous = false
            account.user.appMetadata = ["provider": "email", "providers": ["email"]]
        }
        endSessions { $0.userID == id }
    }

    /// Seconds until another code of `type` may go to the user, or `nil` when it may now.
    func spacingLeft(forUser id: String, type: VerificationType) -> TimeInterval? {
        guard let previous = codes[id]?[type] else { return nil }
        let left = configuration.minimumCodeInterval - now.timeIntervalSince(previous.sentAt)
        return left > 0 ? left : nil
    }

    /// Replaces the user's pending code of `type` with a new one and "e-mails" it.
    @discardableResult
    func issueCode(to email: String, forUser id: String, type: VerificationType) -> String {
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        codes[id, default: [:]][type] = CodeRecord(
            code: code,
            email: email,
            sentAt: now,
            expiresAt: now.addingTimeInterval(configuration.codeLifetime)
        )
        sent.append(SentCode(email: email, code: code, type: type, sentAt: now))
        return code
    }
}
