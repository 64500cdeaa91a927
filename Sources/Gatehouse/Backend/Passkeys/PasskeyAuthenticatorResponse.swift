/// What a platform authenticator answered a passkey request with, as a Sendable value: the
/// delegate of the system's request converts its (non-Sendable) credential into this before
/// anything crosses an isolation boundary.
public enum PasskeyAuthenticatorResponse: Sendable, Equatable {
    /// A new passkey.
    case registration(PasskeyRegistrationCredential)
    /// A sign-in with an existing passkey.
    case assertion(PasskeyAssertionCredential)

    /// The new passkey, or ``AuthError/unexpectedPasskeyCredential()``.
    public func registration() throws -> PasskeyRegistrationCredential {
        guard case .registration(let credential) = self else { throw AuthError.unexpectedPasskeyCredential() }
        return credential
    }

    /// The sign-in, or ``AuthError/unexpectedPasskeyCredential()``.
    public func assertion() throws -> PasskeyAssertionCredential {
        guard case .assertion(let credential) = self else { throw AuthError.unexpectedPasskeyCredential() }
        return credential
    }
}
