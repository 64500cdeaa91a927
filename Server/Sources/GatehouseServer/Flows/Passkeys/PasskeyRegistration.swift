import Foundation
import GatehouseCore
import HTTPTypes

/// `POST /passkeys/registration/options` and `/verify`: a signed-in user adds a passkey.
///
/// Rules:
/// - at most ``maximumPasskeys`` per account;
/// - an account that can sign in another way already (a permanent user, or one with a passkey)
///   needs a sign-in within ``recentSignIn`` or a reauthentication `nonce`, so that a stolen
///   access token cannot plant its own passkey;
/// - a user with a verified second factor needs an AAL2 session (401 `insufficient_aal`);
/// - a guest (anonymous user) may register one and so becomes permanent in place: same id,
///   `is_anonymous` false, `passkey` in its session's `amr`.
struct PasskeyRegistration: Sendable {
    let storage: any AuthStorage
    let relyingParty: RelyingParty?
    let challenges: PasskeyChallenges
    let check: ReauthenticationCheck
    let audit: AuditLog
    let now: @Sendable () -> Date

    static let maximumPasskeys = 10
    /// How recent a sign-in must be to register without a reauthentication code (seconds).
    static let recentSignIn: TimeInterval = 600

    /// Issues creation options bound to the caller.
    func options(_ caller: Caller, nonce: String?) async throws -> PasskeyOptions {
        let relyingParty = try RelyingParty.require(relyingParty)
        try SecondFactorRule.requireAAL2(caller, when: true, for: "add a passkey")
        let now = now()
        let user = caller.user
        let existing = try await storage.read { try await $0.passkeys(userID: user.id) }
        guard existing.count < Self.maximumPasskeys else { throw Self.tooMany }
        if !user.isAnonymous || !existing.isEmpty || !user.identities.isEmpty {
            let lastSignIn = Double(caller.session.amr.map(\.timestamp).max() ?? 0)
            let recent = now.timeIntervalSince1970 - lastSignIn <= Self.recentSignIn
            guard recent || nonce != nil else {
                throw APIError(
                    .badRequest,
                    .reauthenticationNeeded,
                    "Adding a passkey needs a recent sign-in or a reauthentication code (GET /reauthenticate, then send it as nonce)."
                )
            }
            if !recent { try await check(nonce, userID: user.id, now: now) }
        }
        let challenge = try await challenges.issue(.registration, userID: user.id, now: now)
        let name = user.email ?? user.id.key
        let options: JSONValue = [
            "rp": ["id": .string(relyingParty.id), "name": .string(relyingParty.name)],
            "user": [
                "id": .string(Base64URL.encode(Array(user.id.key.utf8))), "name": .string(name),
                "displayName": .string(name),
            ],
            "challenge": .string(challenge.challenge),
            "pubKeyCredParams": .array(
                COSEKey.offeredAlgorithms.map { ["type": "public-key", "alg": .number(Double($0))] }
            ),
            "timeout": .number(PasskeyChallenges.lifetime * 1000),
            "excludeCredentials": .array(existing.map { ["type": "public-key", "id": .string($0.credentialID)] }),
            "authenticatorSelection": [
                "residentKey": "required", "requireResidentKey": true, "userVerification": "required",
            ],
            "attestation": "none",
        ]
        return PasskeyOptions(
            challengeID: challenge.id.key,
            options: options,
            expiresAt: Int(challenge.expiresAt.timeIntervalSince1970)
        )
    }

    /// Verifies the new credential and stores the passkey; a guest becomes permanent.
    ///
    /// - Returns: The new passkey and the user after the change.
    func verify(_ caller: Caller, body: PasskeyVerifyRequest, ip: String) async throws -> (WirePasskey, UserRecord) {
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
        try SecondFactorRule.requireAAL2(caller, when: true, for: "add a passkey")
        let now = now()
        let challenge = try await challenges.consume(
            body.challengeID,
            kind: .registration,
            userID: caller.user.id,
            now: now
        )
        let registration: RelyingParty.Registration
        do throws(WebAuthnFailure) {
            let credential = try PublicKeyCredential(body.credential)
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
            try await audit.record("passkey_created", actor: user.id, ip: ip, detail: passkey.id.key, in: tx)
            if user.isAnonymous {
                user.isAnonymous = false
                user.appMetadata["provider"] = "passkey"
                user.appMetadata["providers"] = ["passkey"]
                user.updatedAt = now
                try await tx.updateUser(user)
                try await tx.addSessionMethod(
                    AMREntry(method: "passkey", timestamp: Int(now.timeIntervalSince1970)),
                    sessionID: sessionID
                )
                try await audit.record("guest_upgraded", actor: user.id, ip: ip, detail: "passkey", in: tx)
            }
            return user
        }
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
