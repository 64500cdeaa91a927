public import Foundation

/// A backend that supports passkeys (`GoTrueBackend` and `InMemoryAuthBackend` do). The
/// ceremonies are plain values: options in, the authenticator's credential out.
public protocol PasskeyBackend: AuthBackend {
    /// Creation options for a new passkey of the session's user; `nonce` is a reauthentication
    /// code, needed when the last sign-in is not recent and the account can sign in otherwise.
    func passkeyRegistrationRequest(for session: Session, nonce: String?) async throws -> PasskeyRegistrationRequest

    /// Stores the new passkey. A guest becomes a permanent user (same id).
    func registerPasskey(
        _ credential: PasskeyRegistrationCredential,
        for request: PasskeyRegistrationRequest,
        name: String?,
        session: Session
    ) async throws -> Passkey

    /// Options for signing in with any passkey of this server.
    func passkeyAssertionRequest() async throws -> PasskeyAssertionRequest

    /// Signs in with a passkey.
    func signIn(
        with credential: PasskeyAssertionCredential,
        for request: PasskeyAssertionRequest
    ) async throws -> Session

    /// The session user's passkeys.
    func passkeys(for session: Session) async throws -> [Passkey]

    /// Renames one of the session user's passkeys.
    func renamePasskey(_ id: UUID, to name: String, session: Session) async throws -> Passkey

    /// Renames one of the session user's passkeys, with a reauthentication code when the last
    /// sign-in is not recent. Defaults to ``renamePasskey(_:to:session:)`` without a code.
    func renamePasskey(_ id: UUID, to name: String, nonce: String?, session: Session) async throws -> Passkey

    /// Removes one of the session user's passkeys (never the last way to sign in).
    func removePasskey(_ id: UUID, session: Session) async throws

    /// Removes one of the session user's passkeys, with a reauthentication code when the last
    /// sign-in is not recent. Defaults to ``removePasskey(_:session:)`` without a code.
    func removePasskey(_ id: UUID, nonce: String?, session: Session) async throws
}

extension PasskeyBackend {
    /// ``renamePasskey(_:to:session:)``; a code is ``ErrorCode/notSupported``.
    public func renamePasskey(_ id: UUID, to name: String, nonce: String?, session: Session) async throws -> Passkey {
        try Self.refuseCode(nonce)
        return try await renamePasskey(id, to: name, session: session)
    }

    /// ``removePasskey(_:session:)``; a code is ``ErrorCode/notSupported``.
    public func removePasskey(_ id: UUID, nonce: String?, session: Session) async throws {
        try Self.refuseCode(nonce)
        try await removePasskey(id, session: session)
    }
}
