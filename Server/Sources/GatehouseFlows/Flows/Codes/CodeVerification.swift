import Foundation
package import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `POST /verify` and `GET /verify`: checks an e-mailed code (with the address) or a link's
/// `token_hash`, applies what the code was for, and signs in.
///
/// Proving an address follows ``AddressProof`` (an unproven password goes, with every session);
/// an address change follows ``EmailChange`` (one side verified answers
/// ``Answer/otherSidePending`` and signs nobody in).
///
/// Codes are single use and die after ``maximumAttempts`` wrong tries; a wrong try is counted
/// in the same transaction, which commits even though the answer is an error.
///
/// A link mailed with a PKCE challenge (``EmailPKCE``) and followed in a browser (`GET /verify`)
/// signs nobody in: it answers ``Answer/authorizationCode(_:redirectTo:)``, an `auth_code` that
/// only the holder of the verifier exchanges (`POST /token?grant_type=pkce`, ``PKCEExchange``),
/// so a link opened on another device gives that device no session. The code itself, typed into
/// the app (`POST /verify`), signs in as before: whoever reads the mail proves the address.
package struct CodeVerification: Sendable {
    /// What `/verify` answers.
    package enum Answer: Sendable {
        case session(WireSession)
        /// One side of a secure e-mail change is in; the other side's code is still pending.
        case otherSidePending
        /// A PKCE link was followed: the `auth_code` for the verifier's holder, and where the
        /// flow sends the browser with it.
        case authorizationCode(String, redirectTo: String)
    }

    let storage: any AuthStorage
    let codes: OneTimeCodes
    /// Counts `/verify` requests per client address (``RateLimitBucket/verify``).
    let rateLimits: RateLimits
    /// Wrong attempts after which a code is dead.
    let maximumAttempts: Int
    let emailChange: EmailChange
    let sessions: SessionIssuer
    let audit: AuditLog
    let now: @Sendable () -> Date

    private enum Outcome: Sendable {
        case session(SessionGrant, Mail?)
        case authorizationCode(String, redirectTo: String, Mail?)
        case pending
        case failure(APIError)
    }

    /// What a request presents, read as GoTrue reads it: an empty field is a missing one, and a
    /// request has exactly one of a code (`token`, with its address) and a link's `token_hash`
    /// (alone).
    enum Proof: Equatable, Sendable {
        /// The mailed digits and the normalized address they were sent to.
        case code(String, email: String)
        /// The link's token.
        case link(String)

        /// The proof in `body`, or 400 `validation_failed`.
        init(_ body: VerifyRequest) throws {
            let token = body.token.flatMap { $0.isEmpty ? nil : $0 }
            let hash = body.tokenHash.flatMap { $0.isEmpty ? nil : $0 }
            switch (token, hash) {
            case (let token?, nil):
                self = .code(token, email: try EmailAddress.normalized(body.email))
            case (nil, let hash?):
                guard body.email?.isEmpty ?? true else {
                    throw APIError.validation("Only the token_hash and type should be provided")
                }
                self = .link(hash)
            default:
                throw APIError.validation("Verify requires either a token or a token_hash")
            }
        }
    }

    /// Verifies and signs in, or throws 403 `otp_expired` (wrong, used, dead or expired code),
    /// 403 `user_banned`, 422 `email_exists`, 400 `validation_failed`, or 429.
    /// - Parameter followsLink: The link was opened (`GET /verify`): a PKCE link answers with
    ///   an `auth_code`.
    package func callAsFunction(_ body: VerifyRequest, followsLink: Bool = false, ip: String) async throws -> Answer {
        do {
            let answer = try await verify(body, followsLink: followsLink, ip: ip)
            AuthMetrics.codeVerified(error: nil)
            return answer
        } catch {
            AuthMetrics.codeVerified(error: error)
            throw error
        }
    }

    private func verify(_ body: VerifyRequest, followsLink: Bool, ip: String) async throws -> Answer {
        let now = now()
        try await rateLimits.hit(.verify, key: ip, now: now)
        guard let purposes = CodePurpose.verified(by: body.type) else {
            throw APIError.validation("Unsupported verification type")
        }
        let presented = try Proof(body)
        let outcome: Outcome = try await storage.transaction { tx in
            let record: CodeRecord
            switch try await find(presented, purposes: purposes, in: tx, now: now) {
            case .success(let found): record = found
            case .failure(let error): return .failure(error)
            }
            guard record.expiresAt > now, record.attempts < maximumAttempts,
                var user = try await tx.user(id: record.userID)
            else {
                return .failure(.otpExpired)
            }
            if user.isBanned(at: now) { return .failure(APIError(.forbidden, .userBanned, "User is banned")) }
            try await tx.deleteCode(userID: record.userID, purpose: record.purpose)
            var notice: Mail?
            if record.purpose == .emailChange || record.purpose == .emailChangeCurrent {
                switch try await emailChange.confirm(record, user: &user, in: tx, now: now) {
                case .otherSidePending:
                    user.updatedAt = now
                    try await tx.updateUser(user)
                    try await audit.record(.emailChangeSideConfirmed, actor: user.id, ip: ip, in: tx)
                    return .pending
                case .refused(let error):
                    return .failure(error)
                case .completed(let mail):
                    notice = mail
                    try await audit.record(.userEmailChanged, actor: user.id, ip: ip, in: tx)
                }
            } else {
                let proof = AddressProof.decide(user: user, purpose: record.purpose, linkHash: record.linkHash)
                proof.apply(to: &user, now: now)
                if proof == .dropUnprovenPassword {
                    try await tx.deleteSessions(userID: user.id, except: nil)
                    try await audit.record(.unprovenPasswordDropped, actor: user.id, ip: ip, in: tx)
                }
            }
            user.lastSignInAt = now
            user.updatedAt = now
            do {
                try await tx.updateUser(user)
            } catch StorageError.duplicateEmail {
                throw EmailChange.emailExists
            }
            try await audit.record(.verified, actor: user.id, ip: ip, detail: record.purpose.rawValue, in: tx)
            if followsLink, let flow = try await tx.flowState(linkHash: record.linkHash), flow.isPKCE,
                flow.userID == user.id
            {
                let code = PKCEExchange.newAuthorizationCode()
                var issued = flow
                issued.authCodeHash = Hex.sha256(code)
                issued.authenticationMethod = record.purpose.signInMethod
                issued.expiresAt = now.addingTimeInterval(PKCEExchange.codeLifetime)
                try await tx.updateFlowState(issued)
                return .authorizationCode(code, redirectTo: flow.redirectTo, notice)
            }
            let grant = try await sessions.open(
                for: user,
                method: record.purpose.signInMethod,
                device: body.device,
                ip: ip,
                in: tx,
                at: now
            )
            return .session(grant, notice)
        }
        switch outcome {
        case .session(let grant, let notice):
            emailChange.delivery.send(notice)
            return .session(try await sessions.answer(grant, now: now))
        case .authorizationCode(let code, let redirectTo, let notice):
            emailChange.delivery.send(notice)
            return .authorizationCode(code, redirectTo: redirectTo)
        case .pending:
            return .otherSidePending
        case .failure(let error):
            throw error
        }
    }

    /// The PKCE flow waiting for the link whose token is `linkToken`, if any (a read: it decides
    /// where `GET /verify` answers, and in which form).
    package func pkceFlow(linkToken: String) async -> FlowStateRecord? {
        guard linkToken.hasPrefix(EmailPKCE.linkPrefix), linkToken.utf8.count <= 512 else { return nil }
        let hash = Hex.sha256(linkToken)
        guard let flow = try? await storage.read({ try await $0.flowState(linkHash: hash) }), flow.isPKCE else {
            return nil
        }
        return flow
    }

    /// The code `proof` names: by link hash, or by address and digits (counting a wrong try
    /// against each live code of the accepted purposes). A new address belongs to no one yet,
    /// so its codes are found by the address they were sent to.
    private func find(
        _ proof: Proof,
        purposes: [CodePurpose],
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Result<CodeRecord, APIError> {
        let (token, email): (String, String)
        switch proof {
        case .link(let hash):
            guard let found = try await tx.code(linkHash: Hex.sha256(hash)), purposes.contains(found.purpose) else {
                return .failure(.otpExpired)
            }
            return .success(found)
        case .code(let digits, let address):
            (token, email) = (digits, address)
        }
        let holder = try await tx.user(email: email)
        var candidates: [CodeRecord] = []
        for purpose in purposes {
            if purpose == .emailChange {
                candidates += try await tx.codes(purpose: .emailChange, email: email)
            } else if let holder, let code = try await tx.code(userID: holder.id, purpose: purpose) {
                candidates.append(code)
            }
        }
        for candidate in candidates {
            if candidate.expiresAt <= now || candidate.attempts >= maximumAttempts { continue }
            // Counted atomically before the comparison: concurrent guesses never pass the limit.
            guard
                let counted = try await tx.countCodeAttempt(
                    userID: candidate.userID,
                    purpose: candidate.purpose,
                    below: maximumAttempts
                )
            else { continue }
            if counted.expiresAt > now, codes.matches(token, counted) {
                var found = counted
                found.attempts -= 1  // this try, counted already, is within the limit
                return .success(found)
            }
        }
        return .failure(.otpExpired)
    }
}
