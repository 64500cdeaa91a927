import Foundation
public import Gatehouse

/// Second factors with the server's rules: 10 per user, unique names, 300 s to verify a new one,
/// and only from the session that enrolled it; enrolling and removing are sensitive actions (a
/// recent sign-in, AAL2 for a user with a verified factor); guests refused; challenges of 300 s
/// taking 5 codes; codes (SHA-1, 6 digits, 30 s, one step either side) refused once accepted; a
/// verify raises the session to AAL2 and ends the user's other sessions below AAL2, and the first
/// verified factor takes the user's other unverified ones with it; removing a factor drops the
/// sessions that relied on it to AAL1.
extension InMemoryAuthBackend {
    public func enrollTOTP(friendlyName: String?, for session: Session) async throws -> TOTPEnrollment {
        try await enrollTOTP(friendlyName: friendlyName, nonce: nil, for: session)
    }

    public func enrollTOTP(friendlyName: String?, nonce: String?, for session: Session) async throws -> TOTPEnrollment {
        try await enter(.enrollFactor)
        let access = try authenticate(session)
        guard let account = accounts[access.userID] else { throw Self.userNotFound() }
        try Self.refuseGuest(account.user)
        try authorizeSensitive("enrol an authenticator app", access, nonce: nonce, aalStatus: 403)
        let existing = factors[access.userID] ?? []
        guard existing.count < 10 else {
            throw Self.mfaError(.tooManyEnrolledMFAFactors, "At most 10 factors per user.", 422)
        }
        let name = friendlyName ?? ""
        if !name.isEmpty, existing.contains(where: { $0.friendlyName == name }) {
            throw Self.mfaError(
                .mfaFactorNameConflict,
                "A factor with the friendly name \"\(name)\" already exists.",
                422
            )
        }
        var generator = SystemRandomNumberGenerator()
        let entry = FactorEntry(
            id: UUID().uuidString.lowercased(),
            friendlyName: name,
            key: (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) },
            createdAt: now,
            enrolledSessionID: access.sessionID
        )
        factors[access.userID, default: []].append(entry)
        syncFactors(of: access.userID)
        let secret = AuthenticatorApp(key: entry.key).base32
        let label = account.user.email ?? access.userID
        let uri = "otpauth://totp/gatehouse:\(label)?secret=\(secret)&issuer=gatehouse"
        return TOTPEnrollment(factorID: entry.id, friendlyName: name, secret: secret, uri: uri, qrCodeSVG: "<svg/>")
    }

    public func challengeFactor(_ factorID: String, for session: Session) async throws -> FactorChallenge {
        try await enter(.challengeFactor)
        let access = try authenticate(session)
        guard let account = accounts[access.userID] else { throw Self.userNotFound() }
        try Self.refuseGuest(account.user)
        guard let entry = factors[access.userID]?.first(where: { $0.id == factorID }) else {
            throw Self.factorNotFound()
        }
        try Self.requireEnrollingSession(entry, access)
        let challenge = ChallengeEntry(
            id: UUID().uuidString.lowercased(),
            factorID: factorID,
            userID: access.userID,
            expiresAt: now.addingTimeInterval(300)
        )
        challenges[challenge.id] = challenge
        return FactorChallenge(id: challenge.id, factorID: factorID, expiresAt: challenge.expiresAt)
    }

    public func verifyFactor(
        _ factorID: String,
        challengeID: String,
        code: String,
        for session: Session
    ) async throws -> Session {
        try await enter(.verifyFactor)
        let access = try authenticate(session)
        guard let index = factors[access.userID]?.firstIndex(where: { $0.id == factorID }) else {
            throw Self.factorNotFound()
        }
        try Self.requireEnrollingSession(factors[access.userID]![index], access)
        guard var challenge = challenges[challengeID], challenge.factorID == factorID else {
            throw Self.mfaError(.mfaFactorNotFound, "Challenge not found for this factor.", 404)
        }
        guard challenge.expiresAt >= now, challenge.attempts < 5 else {
            challenges[challengeID] = nil
            throw Self.mfaError(.mfaChallengeExpired, "The challenge has expired: create a new challenge.", 422)
        }
        challenge.attempts += 1
        challenges[challengeID] = challenge
        var entry = factors[access.userID]![index]
        let current = AuthenticatorApp.step(at: now)
        guard
            let step = [current - 1, current, current + 1].last(where: {
                AuthenticatorApp(key: entry.key).code(step: $0) == code
            })
        else { throw Self.mfaError(.mfaVerificationFailed, "Invalid TOTP code entered.", 422) }
        guard step > (entry.lastUsedStep ?? .min) else {
            throw Self.mfaError(
                .mfaVerificationFailed,
                "This code was used already: wait for the app's next code.",
                422
            )
        }
        challenges[challengeID] = nil
        let isFirst = factors[access.userID]?.contains(where: \.isVerified) != true
        entry.lastUsedStep = step
        entry.isVerified = true
        factors[access.userID]![index] = entry
        if isFirst { factors[access.userID]?.removeAll { !$0.isVerified } }
        syncFactors(of: access.userID)
        sessions[access.sessionID]?.aal = .aal2
        sessions[access.sessionID]?.authenticatedAt = now
        sessions[access.sessionID]?.factorID = factorID
        sessions[access.sessionID]?.methods.removeAll { $0 == "totp" }
        sessions[access.sessionID]?.methods.insert("totp", at: 0)
        endSessions { $0.userID == access.userID && $0.id != access.sessionID && $0.aal != .aal2 }
        return rotateTokens(ofSession: access.sessionID)
    }

    public func unenrollFactor(_ factorID: String, for session: Session) async throws {
        try await unenrollFactor(factorID, nonce: nil, for: session)
    }

    public func unenrollFactor(_ factorID: String, nonce: String?, for session: Session) async throws {
        try await enter(.unenrollFactor)
        let access = try authenticate(session)
        try authorizeSensitive("remove an authenticator app", access, nonce: nonce, aalStatus: 422)
        guard factors[access.userID]?.contains(where: { $0.id == factorID }) == true else {
            throw Self.factorNotFound()
        }
        removeFactor(factorID, of: access.userID)
    }

    /// The code an authenticator app that scanned the factor shows now (`steps` 30 s steps
    /// later or earlier), for tests; `nil` for an unknown factor.
    public func totpCode(factorID: String, steps: Int = 0) -> String? {
        guard let entry = factors.values.joined().first(where: { $0.id == factorID }) else { return nil }
        return AuthenticatorApp(key: entry.key).code(at: now, steps: steps)
    }

    /// Removes a user's factor as an admin would (the way back for a lost phone).
    public func removeFactor(_ factorID: String, of userID: String) {
        factors[userID]?.removeAll { $0.id == factorID }
        challenges = challenges.filter { $0.value.factorID != factorID }
        for (id, record) in sessions where record.factorID == factorID {
            sessions[id]?.aal = .aal1
            sessions[id]?.factorID = nil
            sessions[id]?.methods.removeAll { $0 == "totp" }
        }
        syncFactors(of: userID)
    }

    /// Throws `insufficient_aal` (401) when a user with a verified factor makes a change that
    /// needs AAL2 from an AAL1 session.
    func requireAAL2(_ access: AccessRecord, for action: String, status: Int = 401) throws {
        guard factors[access.userID]?.contains(where: \.isVerified) == true,
            sessions[access.sessionID]?.aal != .aal2
        else { return }
        throw Self.mfaError(.insufficientAAL, "AAL2 session is required to \(action).", status)
    }

    /// Drops unverified factors that waited more than 300 s for their first code.
    func purgeLapsedFactors() {
        for (userID, entries) in factors
        where entries.contains(where: { !$0.isVerified && now.timeIntervalSince($0.createdAt) > 300 }) {
            factors[userID] = entries.filter { $0.isVerified || now.timeIntervalSince($0.createdAt) <= 300 }
            syncFactors(of: userID)
        }
    }

    func syncFactors(of userID: String) {
        accounts[userID]?.user.factors = (factors[userID] ?? []).map {
            Factor(id: $0.id, friendlyName: $0.friendlyName, isVerified: $0.isVerified, createdAt: $0.createdAt)
        }
    }

    static func refuseGuest(_ user: User) throws {
        if user.isAnonymous {
            throw mfaError(.noAuthorization, "Guest accounts cannot use two-factor sign-in.", 403)
        }
    }

    /// A factor not verified yet is challenged and verified only from the session that enrolled it.
    static func requireEnrollingSession(_ entry: FactorEntry, _ access: AccessRecord) throws {
        guard entry.isVerified || entry.enrolledSessionID == access.sessionID else {
            throw mfaError(
                .mfaFactorNotFound,
                "This factor was enrolled in another session: verify it there, or enrol a new one.",
                404
            )
        }
    }

    static func factorNotFound() -> AuthError { mfaError(.mfaFactorNotFound, "Factor not found.", 404) }

    static func mfaError(_ code: ErrorCode, _ message: String, _ status: Int) -> AuthError {
        AuthError(code: code, message: message, recoverySuggestion: nil, httpStatus: status)
    }
}

/// A factor as the in-memory backend keeps it.
struct FactorEntry {
    var id: String
    var friendlyName: String
    var key: [UInt8]
    var isVerified = false
    var lastUsedStep: Int64?
    var createdAt: Date
    /// The session that enrolled it.
    var enrolledSessionID: String
}

/// A challenge of a factor.
struct ChallengeEntry {
    var id: String
    var factorID: String
    var userID: String
    var expiresAt: Date
    var attempts = 0
}
