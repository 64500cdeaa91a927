import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /console/sign-in`: an operator's address, password and authenticator code.
///
/// Every step is the API's own flow: the client's `/token` window (the same bucket and limit),
/// then ``PasswordSignIn`` (its failed-password delays, its dummy hash for unknown addresses),
/// which opens a real session row; then the role; then a TOTP challenge and
/// ``FactorVerification``, which raise that session to AAL2. Only then is the console's cookie
/// issued, bound to the session row. Anything short of that ends the session it opened: a
/// non-operator hears the same refusal as a wrong password, an operator without a verified
/// factor is told to enrol one.
struct ConsoleSignIn: Sendable {
    let storage: any AuthStorage
    let rateLimits: RateLimits
    let passwordSignIn: PasswordSignIn
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
    }

    /// Signs in; returns the new console session's cookie token.
    func callAsFunction(email: String, password: String, code: String, ip: String) async throws -> String {
        do {
            try await rateLimits.hit(.token, key: ip, now: now())
        } catch let error as APIError where error.status == .tooManyRequests {
            throw Refusal.tooManyTries(error.retryAfter)
        }
        let opened: WireSession
        do {
            opened = try await passwordSignIn(
                PasswordGrantRequest(email: email, password: password, device: Self.device),
                ip: ip
            )
        } catch let error as APIError {
            throw error.status == .tooManyRequests ? Refusal.tooManyTries(error.retryAfter) : Refusal.wrongCredentials
        }
        let caller = try await authenticator.caller(bearer: opened.accessToken)
        guard try await storage.read({ try await $0.isOperator(userID: caller.user.id) }) else {
            try await end(caller, ip: ip, reason: "not an operator")
            throw Refusal.wrongCredentials
        }
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
            // The session must still be there and at AAL2 (ended or downgraded meanwhile: refused).
            guard let session = try await tx.session(id: record.sessionID), session.aal == .aal2 else {
                throw Refusal.wrongCode
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
