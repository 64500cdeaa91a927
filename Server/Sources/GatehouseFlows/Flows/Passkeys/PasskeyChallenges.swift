import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import GatehouseWebAuthn
import HTTPTypes

/// Issues and consumes the challenges of passkey ceremonies: 32 random bytes, valid for five
/// minutes, consumed by their first verify attempt whatever its outcome (no replay, no retry
/// against the same challenge).
struct PasskeyChallenges: Sendable {
    let storage: any AuthStorage
    /// How long a challenge stays valid (seconds).
    static let lifetime: TimeInterval = 300
    /// The lifetime as options give it (`timeout`, milliseconds).
    static let timeout = Int(lifetime * 1000)

    /// Stores a new challenge of `kind` for `userID`.
    ///
    /// - Returns: The stored challenge and its bytes, for the options.
    func issue(
        _ kind: WebAuthnChallengeRecord.Kind,
        userID: UUID?,
        now: Date
    ) async throws -> (record: WebAuthnChallengeRecord, bytes: Data) {
        let bytes = SecureRandom.bytes(32)
        let challenge = WebAuthnChallengeRecord(
            userID: userID,
            kind: kind,
            challenge: Base64URL.encode(bytes),
            createdAt: now,
            expiresAt: now.addingTimeInterval(Self.lifetime)
        )
        try await storage.transaction { tx in try await tx.insertWebAuthnChallenge(challenge) }
        return (challenge, Data(bytes))
    }

    /// Consumes the challenge `body` names, in its own transaction so that a failed
    /// verification uses it up too.
    ///
    /// - Returns: The challenge bytes.
    /// - Throws: 400 `validation_failed` for a missing id, `webauthn_challenge_not_found` for an
    ///   unknown or used one, `webauthn_challenge_expired` for an old one.
    func consume(
        _ body: PasskeyVerifyRequest,
        kind: WebAuthnChallengeRecord.Kind,
        userID: UUID?,
        now: Date
    ) async throws -> [UInt8] {
        let uuid = try Self.challengeID(of: body)
        let notFound = APIError(
            .badRequest,
            .webAuthnChallengeNotFound,
            "Challenge not found or already used: request new options."
        )
        let consumed = try await storage.transaction { tx in
            try await tx.consumeWebAuthnChallenge(id: uuid, kind: kind, userID: userID)
        }
        guard let consumed else { throw notFound }
        guard consumed.expiresAt > now else {
            throw APIError(.badRequest, .webAuthnChallengeExpired, "Challenge has expired: request new options.")
        }
        guard let bytes = Base64URL.decode(consumed.challenge) else { throw notFound }
        return bytes
    }

    /// The challenge id of a verify request, checked as Supabase checks it, before any lookup:
    /// 400 `validation_failed` when it is missing or not a UUID, or when the credential is missing.
    static func challengeID(of body: PasskeyVerifyRequest) throws -> UUID {
        guard let id = body.challengeID, !id.isEmpty else { throw APIError.validation("challenge_id is required") }
        guard let uuid = UUID(text: id) else { throw APIError.validation("challenge_id must be a valid UUID") }
        guard body.credential != nil, body.credential != .null else {
            throw APIError.validation("credential is required")
        }
        return uuid
    }
}

extension RelyingParty {
    /// The relying party, or 404 `passkey_disabled` when passkeys are off.
    static func require(_ relyingParty: RelyingParty?) throws -> RelyingParty {
        guard let relyingParty else {
            throw APIError(
                .notFound,
                .passkeyDisabled,
                "Passkeys are not enabled on this server (set GATEHOUSE_WEBAUTHN_RP_ID)."
            )
        }
        return relyingParty
    }
}

extension PasskeyRecord {
    /// The listed form.
    var wire: WirePasskey {
        WirePasskey(
            id: id,
            friendlyName: friendlyName.isEmpty ? nil : friendlyName,
            createdAt: createdAt,
            lastUsedAt: lastUsedAt
        )
    }
}
