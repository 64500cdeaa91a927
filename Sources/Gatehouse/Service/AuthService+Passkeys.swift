public import Foundation

extension AuthService {
    /// Passkeys: registration, sign-in, listing, renaming and removal, as plain values (options
    /// in, the authenticator's credential out). On Apple platforms `PasskeyAuthorization`
    /// drives `ASAuthorizationController` with them; tests use `SoftwarePasskeyAuthenticator`.
    ///
    /// ```swift
    /// let request = try await auth.passkeys.registrationRequest()
    /// let credential = try authenticator.register(request)   // the platform, or a test authenticator
    /// try await auth.passkeys.register(credential, for: request, name: "iPhone")
    /// ```
    public var passkeys: AuthPasskeys { AuthPasskeys(service: self) }
}

/// The passkey flows of one ``AuthService`` (``AuthService/passkeys``).
@MainActor
public struct AuthPasskeys {
    let service: AuthService

    private var backend: any PasskeyBackend {
        get throws {
            guard let backend = service.backend as? any PasskeyBackend else {
                throw AuthError.notSupported("Passkeys")
            }
            return backend
        }
    }

    /// Creation options for a new passkey of the signed-in user (a guest may register one and
    /// so becomes permanent, keeping its id).
    ///
    /// - Parameter nonce: The code ``AuthService/reauthenticate()`` e-mailed, when the server asks
    ///   for one (``ErrorCode/reauthenticationNeeded``: the last sign-in is not recent).
    public func registrationRequest(nonce: String? = nil) async throws -> PasskeyRegistrationRequest {
        try await service.operation {
            let nonce = try AuthService.reauthenticationCode(nonce)
            guard let current = service.tokens else { throw AuthError.notSignedIn() }
            return try await service.explaining(.registerPasskey) {
                try await backend.passkeyRegistrationRequest(for: current, nonce: nonce)
            }
        }
    }

    /// Stores the authenticator's new passkey. A guest becomes a permanent user in place; the
    /// session is refreshed so that its claims say so.
    @discardableResult
    public func register(
        _ credential: PasskeyRegistrationCredential,
        for request: PasskeyRegistrationRequest,
        name: String? = nil
    ) async throws -> Passkey {
        let (passkey, wasGuest) = try await service.operation {
            guard let current = service.tokens else { throw AuthError.notSignedIn() }
            let passkey = try await service.explaining(.registerPasskey) {
                try await backend.registerPasskey(credential, for: request, name: name, session: current)
            }
            return (passkey, current.user.isAnonymous)
        }
        if wasGuest { _ = try? await service.refreshSession() }
        return passkey
    }

    /// Options for signing in with any passkey of this server (no user name: AutoFill works).
    public func signInRequest() async throws -> PasskeyAssertionRequest {
        try await service.operation { try await backend.passkeyAssertionRequest() }
    }

    /// Signs in with the authenticator's assertion.
    @discardableResult
    public func signIn(
        _ credential: PasskeyAssertionCredential,
        for request: PasskeyAssertionRequest
    ) async throws -> User {
        try await service.operation {
            try await service.requireStoreRead()
            let started = service.generation
            let new = try await backend.signIn(with: credential, for: request)
            try await service.establish(new, startedIn: started)
            return new.user
        }
    }

    /// The signed-in user's passkeys.
    public func list() async throws -> [Passkey] {
        try await service.operation {
            guard let current = service.tokens else { throw AuthError.notSignedIn() }
            return try await backend.passkeys(for: current)
        }
    }

    /// Renames one of the signed-in user's passkeys.
    ///
    /// - Parameters:
    ///   - id: The passkey to rename.
    ///   - name: Its new name.
    ///   - nonce: The code ``AuthService/reauthenticate()`` e-mailed, when the server asks
    ///     for one (``ErrorCode/reauthenticationNeeded``: the last sign-in is not recent).
    @discardableResult
    public func rename(_ id: UUID, to name: String, nonce: String? = nil) async throws -> Passkey {
        try await service.operation {
            let nonce = try AuthService.reauthenticationCode(nonce)
            guard let current = service.tokens else { throw AuthError.notSignedIn() }
            return try await service.explaining(.renamePasskey) {
                try await backend.renamePasskey(id, to: name, nonce: nonce, session: current)
            }
        }
    }

    /// Throws ``ErrorCode/notSignedIn`` unless a guest is signed in.
    func requireGuest() throws {
        guard service.currentUser?.isAnonymous == true else {
            throw AuthError(
                code: .notSignedIn,
                message: "No guest is signed in.",
                recoverySuggestion: "Sign in as a guest first, or add a passkey to the account with registerPasskey."
            )
        }
    }

    /// Removes one of the signed-in user's passkeys; the account's last way to sign in is refused
    /// (``ErrorCode/singleIdentityNotDeletable``).
    ///
    /// - Parameters:
    ///   - id: The passkey to remove.
    ///   - nonce: The code ``AuthService/reauthenticate()`` e-mailed, when the server asks
    ///     for one (``ErrorCode/reauthenticationNeeded``: the last sign-in is not recent).
    public func remove(_ id: UUID, nonce: String? = nil) async throws {
        try await service.operation {
            let nonce = try AuthService.reauthenticationCode(nonce)
            guard let current = service.tokens else { throw AuthError.notSignedIn() }
            try await service.explaining(.removePasskey) {
                try await backend.removePasskey(id, nonce: nonce, session: current)
            }
        }
    }
}
