import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /console/sign-in`: an operator's address, password and authenticator code; or
/// `POST /console/sign-in/passkey`: an operator's passkey and authenticator code.
///
/// Every step is the API's own flow. With a password: the client's `/token` window (the same
/// bucket and limit), then ``PasswordSignIn`` (its failed-password delays, its dummy hash for
/// unknown addresses), which opens a real session row; then the role; then a TOTP challenge and
/// ``FactorVerification``, which raise that session to AAL2. With a passkey: the passkey
/// ceremonies' window, then ``PasskeySignIn`` (its single-use challenge, origin, RP id, user
/// verification and counter checks), which opens the row; then the role; then the same TOTP step.
/// Either way the passkey or the password is the first factor and the code the second. Only when
/// the row meets
/// the table's proof (``SensitiveActionPolicy/admitsOperator(_:isOperator:)``) is the console's
/// cookie issued, bound to it. Anything short of that ends the session it opened: a non-operator
/// hears the same refusal as a wrong credential, an operator without a verified factor is told
/// to enrol one.
struct ConsoleSignIn: Sendable {
    let storage: any AuthStorage
    let rateLimits: RateLimits
    let passwordSignIn: PasswordSignIn
    let passkeySignIn: PasskeySignIn
    let authenticator: Authenticator
    let challenge: FactorChallengeCreation
    let verification: FactorVerification
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// The device label of a console sign-in's session, as the user's session list shows it.
    static let device = "Gatehouse console"

    /// Why a sign-in was refused, as the page words it.
    enum Refusal: Error, Equatable {
        /// Wrong address or password, or not an operator: one message for all.
        case wrongCredentials
        /// An operator without a verified authenticator app.
        case noFactor
        /// The authenticator code was wrong, used already, or its budget is spent.
        case wrongCode
        /// Too many tries from this client: wait this many seconds.
        case tooManyTries(Int?)
        /// The passkey did not sign in (unknown, forged, replayed, without user verification, for
        /// another site), or it is not an operator's: one message for all.
        case wrongPasskey
    }

    /// Signs in; returns the new console session's cookie token.
    func callAsFunction(email: String, password: String, code: String, ip: String) async throws -> String {
        try await spend(.token, ip: ip)
        let opened: WireSession
        do {
            opened = try await passwordSignIn(
                PasswordGrantRequest(email: email, password: password, device: Self.device),
                ip: ip
            )
        } catch let error as APIError {
            throw error.status == .tooManyRequests ? Refusal.tooManyTries(error.retryAfter) : Refusal.wrongCredentials
        }
        let caller = try await operatorCaller(opened, ip: ip, refusal: .wrongCredentials)
        try await raiseToAAL2(caller, code: code, ip: ip)
        return try await issue(caller, ip: ip, refusal: .wrongCode)
    }

    /// The second factor of either way in: a TOTP challenge and ``FactorVerification`` of `code`,
    /// which raise the opened session to AAL2. Without a verified factor, or with a wrong code,
    /// the session is ended and the refusal says which.
    private func raiseToAAL2(_ caller: Caller, code: String, ip: String) async throws {
        guard let factor = caller.user.factors.first(where: { $0.isVerified && $0.factorType == "totp" }) else {
            try await end(caller, ip: ip, reason: "no verified factor")
            throw Refusal.noFactor
        }
        do {
            let challenged = try await challenge(factorID: factor.id, caller: caller, ip: ip)
            _ = try await verification(
                factorID: factor.id,
                VerifyFactorRequest(challengeID: challenged.id, code: code.filter { !$0.isWhitespace }),
                caller: caller,
                ip: ip
            )
        } catch let error as APIError {
            try await end(caller, ip: ip, reason: "wrong code")
            throw error.status == .tooManyRequests ? Refusal.tooManyTries(error.retryAfter) : Refusal.wrongCode
        }
    }

    /// New passkey request options (``PasskeySignIn/options()``), spending the client's passkey
    /// ceremonies window as `POST /passkeys/authentication/options` does.
    func passkeyOptions(ip: String) async throws -> PasskeyOptions {
        try await spend(.passkey, ip: ip)
        return try await passkeySignIn.options()
    }

    /// Signs in with a passkey's assertion and the authenticator code; returns the new console
    /// session's cookie token.
    func callAsFunction(passkey body: PasskeyVerifyRequest, code: String, ip: String) async throws -> String {
        try await spend(.passkey, ip: ip)
        let opened: WireSession
        do {
            opened = try await passkeySignIn.verify(body, device: Self.device, ip: ip)
        } catch let error as APIError {
            throw error.status == .tooManyRequests ? Refusal.tooManyTries(error.retryAfter) : Refusal.wrongPasskey
        }
        let caller = try await operatorCaller(opened, ip: ip, refusal: .wrongPasskey)
        try await raiseToAAL2(caller, code: code, ip: ip)
        return try await issue(caller, ip: ip, refusal: .wrongCode)
    }

    /// The caller of the session a sign-in just opened, if they hold the operator role; else that
    /// session is ended and `refusal`, what a wrong credential hears, is thrown.
    private func operatorCaller(_ opened: WireSession, ip: String, refusal: Refusal) async throws -> Caller {
        let caller = try await authenticator.caller(bearer: opened.accessToken)
        guard try await storage.read({ try await $0.isOperator(userID: caller.user.id) }) else {
            try await end(caller, ip: ip, reason: "not an operator")
            throw refusal
        }
        return caller
    }

    /// Spends the client's window of `bucket`.
    private func spend(_ bucket: RateLimitBucket, ip: String) async throws {
        do {
            try await rateLimits.hit(bucket, key: ip, now: now())
        } catch let error as APIError where error.status == .tooManyRequests {
            throw Refusal.tooManyTries(error.retryAfter)
        }
    }

    /// Issues the console session bound to `caller`'s session row, if that row, read again, still
    /// meets the table's proof; else `refusal`.
    private func issue(_ caller: Caller, ip: String, refusal: Refusal) async throws -> String {
        let token = ConsoleSecrets.newToken()
        let now = now()
        let record = ConsoleSessionRecord(
            tokenHash: ConsoleSecrets.hash(token),
            sessionID: caller.session.id,
            userID: caller.user.id,
            createdAt: now,
            lastSeenAt: now
        )
        try await storage.transaction { tx in
            // The session must still be there and meet the proof (ended, downgraded or the role
            // revoked meanwhile: refused).
            guard let session = try await tx.session(id: record.sessionID),
                SensitiveActionPolicy.admitsOperator(
                    session,
                    isOperator: try await tx.isOperator(userID: record.userID)
                )
            else {
                throw refusal
            }
            try await tx.insertConsoleSession(record)
            try await audit.record(.consoleSignedIn, actor: record.userID, ip: ip, in: tx)
        }
        return token
    }

    /// Ends the session a refused sign-in opened, and records why.
    private func end(_ caller: Caller, ip: String, reason: String) async throws {
        try await storage.transaction { tx in
            try await tx.deleteSession(id: caller.session.id)
            try await audit.record(
                .consoleSignInRefused,
                actor: caller.user.id,
                ip: ip,
                detail: reason,
                in: tx
            )
        }
    }
}
