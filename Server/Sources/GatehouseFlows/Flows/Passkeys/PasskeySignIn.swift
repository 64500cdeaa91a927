import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import GatehouseWebAuthn
import HTTPTypes

/// `POST /passkeys/authentication/options` and `/verify`: signs in with a discoverable
/// passkey, no user name asked (conditional UI, AutoFill). The session's `amr` is `passkey`.
///
/// The assertion's user handle must name the passkey's owner; a signature counter that does
/// not grow (when either side is non-zero) suggests a cloned authenticator: it is refused and
/// recorded in the audit log. A passkey's backup eligibility never changes.
package struct PasskeySignIn: Sendable {
    let storage: any AuthStorage
    let relyingParty: RelyingParty?
    let challenges: PasskeyChallenges
    let sessions: SessionIssuer
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// Issues request options for any passkey of this RP.
    package func options() async throws -> PasskeyOptions {
        let relyingParty = try RelyingParty.require(relyingParty)
        let challenge = try await challenges.issue(.authentication, userID: nil, now: now())
        let options = PasskeyRequestOptions(
            challenge: challenge.bytes,
            timeout: PasskeyChallenges.timeout,
            relyingPartyID: relyingParty.id,
            userVerification: .required
        )
        return PasskeyOptions(
            challengeID: challenge.record.id.key,
            options: options.json,
            expiresAt: Int(challenge.record.expiresAt.timeIntervalSince1970)
        )
    }

    /// Verifies the assertion and opens a session for the passkey's owner, labelled `device`
    /// (`X-Client-Info` or `User-Agent`); counted in the metrics as a passkey verification and
    /// a sign-in.
    package func verify(_ body: PasskeyVerifyRequest, device: String?, ip: String) async throws -> WireSession {
        do {
            let session = try await verifyAssertion(body, device: device, ip: ip)
            AuthMetrics.passkeyVerified(.authentication, error: nil)
            AuthMetrics.signIn(.passkey, error: nil)
            return session
        } catch {
            AuthMetrics.passkeyVerified(.authentication, error: error)
            AuthMetrics.signIn(.passkey, error: error)
            throw error
        }
    }

    private func verifyAssertion(_ body: PasskeyVerifyRequest, device: String?, ip: String) async throws -> WireSession
    {
        let relyingParty = try RelyingParty.require(relyingParty)
        let now = now()
        let challenge = try await challenges.consume(body, kind: .authentication, userID: nil, now: now)
        // The passkey is looked up first, so that an unknown one is answered as such whatever
        // else the credential lacks; its whole shape is read after.
        let named: AnyPasskeyCredential
        do throws(WebAuthnFailure) {
            named = try AnyPasskeyCredential(request: body.credential)
        } catch {
            throw error.apiError
        }
        let credentialID = Base64URL.string(named.credentialID)
        guard let stored = try await storage.read({ try await $0.passkey(credentialID: credentialID) }) else {
            throw APIError(
                .badRequest,
                .webAuthnCredentialNotFound,
                "This passkey is not registered here (it may have been removed)."
            )
        }
        let credential: PasskeyAssertionCredential
        do throws(WebAuthnFailure) {
            credential = try PasskeyAssertionCredential(request: body.credential)
        } catch {
            throw error.apiError
        }
        guard ConstantTime.equal(Array(credential.userHandle), Array(stored.userID.key.utf8)) else {
            throw WebAuthnFailure.rejected("the user handle does not name the passkey's owner").apiError
        }
        let assertion: RelyingParty.Assertion
        do throws(WebAuthnFailure) {
            guard let publicKey = Base64URL.decode(stored.publicKey) else {
                throw WebAuthnFailure.rejected("the stored key cannot be read")
            }
            assertion = try relyingParty.verifyAssertion(credential, challenge: challenge, publicKey: publicKey)
        } catch {
            throw error.apiError
        }
        guard assertion.backupEligible == stored.backupEligible else {
            throw WebAuthnFailure.rejected("the passkey's backup eligibility changed").apiError
        }
        let counter = Int64(assertion.signCount)
        let grant: SessionGrant
        do {
            grant = try await storage.transaction { tx in
                // The counter is checked here, after the user's row is locked (PostgreSQL), so two
                // sign-ins with one passkey take turns: the second reads the counter the first stored.
                guard var user = try await tx.user(id: stored.userID) else { throw APIError.invalidCredentials }
                guard var passkey = try await tx.passkey(credentialID: credentialID), passkey.id == stored.id else {
                    throw APIError.invalidCredentials
                }
                if Self.regressed(counter, after: passkey.signCount) { throw CounterRegressed(stored: passkey) }
                if user.isBanned(at: now) { throw APIError.userBanned }
                if user.email != nil, user.emailConfirmedAt == nil, !user.isAnonymous {
                    throw APIError(.badRequest, .emailNotConfirmed, "Email not confirmed")
                }
                passkey.signCount = counter
                passkey.backedUp = assertion.backedUp
                passkey.lastUsedAt = now
                passkey.updatedAt = now
                try await tx.updatePasskey(passkey)
                user.lastSignInAt = now
                user.updatedAt = now
                try await tx.updateUser(user)
                try await audit.record(.login, actor: user.id, ip: ip, detail: "passkey", in: tx)
                return try await sessions.open(for: user, method: .passkey, device: device, ip: ip, in: tx, at: now)
            }
        } catch let regressed as CounterRegressed {
            try await refuseRegressed(regressed.stored, counter: counter, ip: ip)
        }
        return try await sessions.answer(grant, now: now)
    }

    /// A signature counter that did not grow, when either side is non-zero (synced passkeys
    /// send zero every time).
    private static func regressed(_ counter: Int64, after stored: Int64) -> Bool {
        (counter != 0 || stored != 0) && counter <= stored
    }

    /// Found inside the transaction: recorded after it rolled back.
    private struct CounterRegressed: Error {
        let stored: PasskeyRecord
    }

    /// Records a counter that did not grow in the audit log and refuses the assertion.
    private func refuseRegressed(_ stored: PasskeyRecord, counter: Int64, ip: String) async throws -> Never {
        try await storage.transaction { tx in
            try await audit.record(
                .passkeySignCountRegressed,
                actor: stored.userID,
                ip: ip,
                detail: "\(stored.id.key) stored \(stored.signCount) received \(counter)",
                in: tx
            )
        }
        throw WebAuthnFailure.rejected("the signature counter did not grow, as if the authenticator were cloned")
            .apiError
    }
}
