public import Foundation
public import Gatehouse
import GatehouseCore

/// Passkeys over Supabase Auth's `/passkeys` routes.
extension GoTrueBackend: PasskeyBackend {
    public func passkeyRegistrationRequest(
        for session: Session,
        nonce: String?
    ) async throws -> PasskeyRegistrationRequest {
        let reply: PasskeyOptions = try await client.send(
            .post,
            "passkeys/registration/options",
            body: PasskeyRegistrationOptionsRequest(nonce: nonce),
            bearer: session.accessToken
        )
        return try PasskeyRegistrationRequest(reply)
    }

    public func registerPasskey(
        _ credential: PasskeyRegistrationCredential,
        for request: PasskeyRegistrationRequest,
        name: String?,
        session: Session
    ) async throws -> Passkey {
        let wire: WirePasskey = try await client.send(
            .post,
            "passkeys/registration/verify",
            body: PasskeyVerifyRequest(
                challengeID: request.challengeID,
                credential: credential.json,
                friendlyName: name
            ),
            bearer: session.accessToken
        )
        return Passkey(wire)
    }

    public func passkeyAssertionRequest() async throws -> PasskeyAssertionRequest {
        let reply: PasskeyOptions = try await client.send(.post, "passkeys/authentication/options")
        return try PasskeyAssertionRequest(reply)
    }

    public func signIn(
        with credential: PasskeyAssertionCredential,
        for request: PasskeyAssertionRequest
    ) async throws -> Session {
        let wire: WireSession = try await client.send(
            .post,
            "passkeys/authentication/verify",
            body: PasskeyVerifyRequest(challengeID: request.challengeID, credential: credential.json)
        )
        return Session(wire: wire, receivedAt: configuration.now())
    }

    public func passkeys(for session: Session) async throws -> [Passkey] {
        let list: [WirePasskey] = try await client.send(.get, "passkeys", bearer: session.accessToken, idempotent: true)
        return list.map(Passkey.init)
    }

    public func renamePasskey(_ id: UUID, to name: String, session: Session) async throws -> Passkey {
        try await renamePasskey(id, to: name, nonce: nil, session: session)
    }

    /// `PATCH /passkeys/{id}` with `nonce` beside the name when a reauthentication code is given.
    public func renamePasskey(_ id: UUID, to name: String, nonce: String?, session: Session) async throws -> Passkey {
        let wire: WirePasskey = try await client.send(
            .patch,
            "passkeys/\(id.uuidString.lowercased())",
            body: PasskeyRenameRequest(friendlyName: name, nonce: nonce),
            bearer: session.accessToken
        )
        return Passkey(wire)
    }

    public func removePasskey(_ id: UUID, session: Session) async throws {
        try await removePasskey(id, nonce: nil, session: session)
    }

    /// `DELETE /passkeys/{id}`, with `{"nonce": …}` when a reauthentication code is given.
    public func removePasskey(_ id: UUID, nonce: String?, session: Session) async throws {
        let _: EmptyReply = try await client.send(
            .delete,
            "passkeys/\(id.uuidString.lowercased())",
            body: Self.proof(nonce),
            bearer: session.accessToken
        )
    }
}
