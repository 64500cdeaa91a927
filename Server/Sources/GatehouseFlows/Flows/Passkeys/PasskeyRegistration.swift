import Foundation
package import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import GatehouseWebAuthn
import HTTPTypes

/// `POST /passkeys/registration/options` and `/verify`: a signed-in user adds a passkey
/// (``SensitiveAction/registerPasskey``).
///
/// Rules:
/// - at most ``maximumPasskeys`` per account;
/// - what the caller must prove is ``SensitiveActionPolicy``'s, checked when the options are
///   issued: a sign-in within 10 minutes or a reauthentication `nonce` (a guest with no other
///   way in needs neither), and AAL2 from a user with a verified factor (checked again at
///   verify); the challenge, single-use and bound to the user for 5 minutes, carries the proof
///   to the verify, and the owner is told afterwards;
/// - a guest (anonymous user) may register one and so becomes permanent in place: same id,
///   `is_anonymous` false, `passkey` in its session's `amr`.
package struct PasskeyRegistration: Sendable {
    let storage: any AuthStorage
    let relyingParty: RelyingParty?
    let challenges: PasskeyChallenges
    let sensitive: SensitiveActionGuard
    let audit: AuditLog
    let now: @Sendable () -> Date

    static let maximumPasskeys = 10

    /// Issues creation options bound to the caller.
    package func options(_ caller: Caller, nonce: String?, ip: String) async throws -> PasskeyOptions {
        let relyingParty = try RelyingParty.require(relyingParty)
        _ = try await sensitive.authorize(.registerPasskey, caller, evidence: .init(nonce: nonce), ip: ip)
        let now = now()
        let user = caller.user
        let existing = try await storage.read { try await $0.passkeys(userID: user.id) }
        guard existing.count < Self.maximumPasskeys else { throw Self.tooMany }
        let challenge = try await challenges.issue(.registration, userID: user.id, now: now)
        let name = user.email ?? user.id.key
        let excluded = existing.compactMap { Base64URL.data($0.credentialID) }
        let options = PasskeyCreationOptions(
            relyingParty: .init(id: relyingParty.id, name: relyingParty.name),
            user: .init(id: Data(user.id.key.utf8), name: name, displayName: name),
            challenge: challenge.bytes,
            parameters: COSEKey.offeredAlgorithms.map { .init(algorithm: Int($0)) },
            timeout: PasskeyChallenges.timeout,
            excludeCredentials: excluded.map { PasskeyCredentialDescriptor(id: $0) },
            authenticatorSelection: .init(
                residentKey: .required,
                requireResidentKey: true,
                userVerification: .required
            ),
            attestation: "none"
        )
        return PasskeyOptions(
            challengeID: challenge.record.id.key,
            options: options.json,
            expiresAt: Int(challenge.record.expiresAt.timeIntervalSince1970)
        )
    }

    /// Verifies the new credential and stores the passkey; a guest becomes permanent.
    ///
    /// - Returns: The new passkey and the user after the change.
    package func verify(
        _ caller: Caller,
        body: PasskeyVerifyRequest,
        ip: String
    ) async throws -> (WirePasskey, UserRecord) {
        do {
            let result = try await verifyAttestation(caller, body: body, ip: ip)
            AuthMetrics.passkeyVerified(.registration, error: nil)
            return result
        } catch {
            AuthMetrics.passkeyVerified(.registration, error: error)
            throw error
        }
    }

    private func verifyAttestation(
        _ caller: Caller,
        body: PasskeyVerifyRequest,
        ip: String
    ) async throws -> (WirePasskey, UserRecord) {
        let relyingParty = try RelyingParty.require(relyingParty)
        let permit = try sensitive.continuing(.registerPasskey, caller)
        let now = now()
        let challenge = try await challenges.consume(
            body,
            kind: .registration,
            userID: caller.user.id,
            now: now
        )
        let registration: RelyingParty.Registration
        do throws(WebAuthnFailure) {
            let credential = try PasskeyRegistrationCredential(request: body.credential)
            registration = try relyingParty.verifyRegistration(credential, challenge: challenge)
        } catch {
            throw error.apiError
        }
        let name = try Self.friendlyName(body.friendlyName) ?? "Passkey"
        let passkey = PasskeyRecord(
            userID: caller.user.id,
            credentialID: Base64URL.encode(registration.credentialID),
            publicKey: Base64URL.encode(registration.publicKey),
            algorithm: Int(registration.algorithm),
            attestationType: registration.attestationType,
            aaguid: UUID(bytes: registration.aaguid).key,
            signCount: Int64(registration.signCount),
            transports: registration.transports,
            backupEligible: registration.backupEligible,
            backedUp: registration.backedUp,
            friendlyName: name,
            createdAt: now,
            updatedAt: now
        )
        let sessionID = caller.session.id
        let user = try await storage.transaction { tx in
            guard var user = try await tx.user(id: passkey.userID) else { throw APIError.userNotFoundForToken }
            guard try await tx.passkeys(userID: user.id).count < Self.maximumPasskeys else { throw Self.tooMany }
            do {
                try await tx.insertPasskey(passkey)
            } catch StorageError.duplicatePasskey {
                throw APIError(.unprocessableContent, .webAuthnCredentialExists, "This passkey is registered already.")
            }
            try await audit.record(.passkeyCreated, actor: user.id, ip: ip, detail: passkey.id.key, in: tx)
            if user.isAnonymous {
                user.isAnonymous = false
                user.appMetadata["provider"] = "passkey"
                user.appMetadata["providers"] = ["passkey"]
                user.updatedAt = now
                try await tx.updateUser(user)
                try await tx.addSessionMethod(
                    AMREntry(method: .passkey, timestamp: Int(now.timeIntervalSince1970)),
                    sessionID: sessionID
                )
                try await audit.record(.guestUpgraded, actor: user.id, ip: ip, detail: "passkey", in: tx)
            }
            try await permit.queueNotices("A passkey", in: tx, now: now)
            return user
        }
        permit.sendQueuedNotices()
        return (passkey.wire, user)
    }

    static let tooMany = APIError(
        .unprocessableContent,
        .tooManyPasskeys,
        "This account has \(maximumPasskeys) passkeys, the most it may have: remove one first."
    )

    /// A passkey name (``ChosenName``): trimmed, 1 to 120 characters, none invisible; `nil`
    /// when not given.
    static func friendlyName(_ name: String?) throws -> String? {
        guard let name else { return nil }
        let checked = try ChosenName.validated(name, field: "friendly_name", maximumCharacters: 120)
        guard !checked.isEmpty else { throw APIError.validation("friendly_name must not be empty") }
        return checked
    }
}
