public import Foundation
import GatehouseServerSupport

/// The passkey reads of the storage (part of ``StorageReader``).
public protocol PasskeyReader: Sendable {
    /// A user's passkeys, oldest first.
    func passkeys(userID: UUID) async throws -> [PasskeyRecord]
    /// The passkey with an authenticator's credential id (base64url).
    func passkey(credentialID: String) async throws -> PasskeyRecord?
}

/// The passkey writes of the storage (part of ``StorageTransaction``).
public protocol PasskeyWriter: Sendable {
    /// Stores a passkey; a credential id registered already is `StorageError.duplicatePasskey`.
    func insertPasskey(_ passkey: PasskeyRecord) async throws
    /// Rewrites a passkey's name, counter, flags and use times.
    func updatePasskey(_ passkey: PasskeyRecord) async throws
    /// Deletes one of the user's passkeys; returns whether it existed.
    func deletePasskey(id: UUID, userID: UUID) async throws -> Bool

    /// Stores a challenge, and drops expired ones.
    func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) async throws
    /// Deletes and returns the challenge `id` of `kind` (bound to `userID` when given, to no
    /// user when `nil`): a challenge is consumed by its first use, whatever follows.
    func consumeWebAuthnChallenge(
        id: UUID,
        kind: WebAuthnChallengeRecord.Kind,
        userID: UUID?
    ) async throws -> WebAuthnChallengeRecord?

    /// Adds a method to a session's `amr` (a guest's session after it registers a passkey).
    func addSessionMethod(_ entry: AMREntry, sessionID: UUID) async throws
}
