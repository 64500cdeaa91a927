public import Foundation

/// The seam between ``AuthService`` and an authentication provider.
///
/// Gatehouse ships an HTTP implementation for GoTrue-compatible servers and, in
/// `GatehouseTesting`, `InMemoryAuthBackend` for unit tests and previews. A backend is
/// stateless about *which* user is signed in: the service passes the current ``Session``
/// to every call that needs one, and owns storage, state and refresh coordination.
///
/// Errors thrown are ``AuthError`` values with the server's code, so the service can tell a
/// definitive answer (``AuthError/endsSession``) from a transport failure.
///
/// ```swift
/// // In a test: a backend whose sign-in always fails.
/// struct FailingBackend: AuthBackend { ... }
/// let service = AuthService(backend: InMemoryAuthBackend(), store: InMemorySessionStore())
/// ```
public protocol AuthBackend: Sendable {
    /// Creates an account with e-mail and password. When `guest` is a guest's session, the
    /// backend upgrades that user in place (same id) where it can.
    func signUp(email: String, password: String, upgrading guest: Session?) async throws -> SignUpOutcome

    /// Signs in with e-mail and password.
    func signIn(email: String, password: String) async throws -> Session

    /// Creates a guest (anonymous) user and signs in.
    func signInAnonymously() async throws -> Session

    /// Signs in with an Apple or Google ID token. When `guest` is a guest's session, the backend
    /// links the identity to that user (same id) where it can.
    func signIn(with credential: IDTokenCredential, upgrading guest: Session?) async throws -> Session

    /// Sends a one-time sign-in code to an e-mail address.
    func sendMagicCode(to email: String) async throws

    /// Verifies a one-time code sent by e-mail and signs in.
    func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session

    /// Verifies one code of an e-mail change: the new address with its code, or the current
    /// address with its code. Defaults to ``verifyCode(email:code:type:)``, completing at once.
    func verifyEmailChange(email: String, code: String) async throws -> EmailChangeVerification

    /// Sends a password-reset code or link.
    func resetPassword(email: String) async throws

    /// Exchanges the session's refresh token for new tokens.
    func refresh(_ session: Session) async throws -> Session

    /// Reads the session's user from the server, proving the session is still live.
    func user(for session: Session) async throws -> User

    /// Changes the signed-in user's e-mail, password or metadata.
    func updateUser(_ changes: UserChanges, for session: Session) async throws -> User

    /// Deletes the signed-in user's account.
    func deleteAccount(_ session: Session) async throws

    /// Deletes the signed-in user's account, with a reauthentication code when the last sign-in
    /// is not recent. Defaults to ``deleteAccount(_:)`` without a code.
    func deleteAccount(_ session: Session, nonce: String?) async throws

    /// E-mails the signed-in user a reauthentication code (`GET /reauthenticate`), which the
    /// sensitive actions accept as `nonce` in place of a recent sign-in. Defaults to
    /// ``ErrorCode/notSupported``.
    func reauthenticate(for session: Session) async throws

    /// Links an Apple or Google identity to the signed-in user and returns the session the
    /// server opens for it; `nonce` is a reauthentication code, sent when the last sign-in is not
    /// recent. Defaults to ``signIn(with:upgrading:)`` with `session` (without a code).
    func linkIdentity(_ credential: IDTokenCredential, nonce: String?, for session: Session) async throws -> Session

    /// Enrols a new authenticator-app factor for the session's user (unverified until its first
    /// code is verified). Defaults to `not_supported`.
    func enrollTOTP(friendlyName: String?, for session: Session) async throws -> TOTPEnrollment

    /// Starts a challenge of one of the user's factors. Defaults to `not_supported`.
    func challengeFactor(_ factorID: String, for session: Session) async throws -> FactorChallenge

    /// Verifies an authenticator app's code for a challenge: the same session, raised to AAL2,
    /// with new tokens. Defaults to `not_supported`.
    func verifyFactor(
        _ factorID: String,
        challengeID: String,
        code: String,
        for session: Session
    ) async throws
        -> Session

    /// Enrols a new authenticator-app factor, with a reauthentication code when the last
    /// sign-in is not recent. Defaults to ``enrollTOTP(friendlyName:for:)`` without a code.
    func enrollTOTP(friendlyName: String?, nonce: String?, for session: Session) async throws -> TOTPEnrollment

    /// Removes one of the user's factors. Defaults to `not_supported`.
    func unenrollFactor(_ factorID: String, for session: Session) async throws

    /// Removes one of the user's factors, with a reauthentication code when the last sign-in is
    /// not recent. Defaults to ``unenrollFactor(_:for:)`` without a code.
    func unenrollFactor(_ factorID: String, nonce: String?, for session: Session) async throws

    /// Ends sessions on the server. Callers treat failures as best-effort.
    func signOut(_ session: Session, scope: LogoutScope) async throws

    /// Ends sessions on the server; `others` and `global` take a reauthentication code when the
    /// last sign-in is not recent. A session already gone counts as signed out for `local` and
    /// `global`; for `others` it is an error (nothing was ended). Defaults to
    /// ``signOut(_:scope:)`` without a code.
    func signOut(_ session: Session, scope: LogoutScope, nonce: String?) async throws

    /// The user's sessions, one per signed-in device, newest first (``DeviceSession/isCurrent``
    /// marks `session`'s own). Defaults to ``ErrorCode/notSupported``.
    func sessions(for session: Session) async throws -> [DeviceSession]

    /// Ends one of the user's sessions at once. Ending another than `session`'s own may need a
    /// recent sign-in or a reauthentication `nonce` (``ErrorCode/reauthenticationNeeded``); an id
    /// that is not one of the user's sessions is ``ErrorCode/notFound``. Defaults to
    /// ``ErrorCode/notSupported``.
    func endSession(id: UUID, nonce: String?, for session: Session) async throws -> EndedSession

    /// The URL that starts `flow` at its provider's page: the server's
    /// `GET /authorize?provider=…&redirect_to=…&scopes=…&code_challenge=…&code_challenge_method=s256`.
    /// Defaults to ``ErrorCode/notSupported``.
    func providerSignInURL(for flow: ProviderSignInFlow) async throws -> URL

    /// Exchanges the `auth_code` of a sign-in's redirect for a session, proving with the PKCE
    /// `verifier` whose challenge started the flow (`POST /token?grant_type=pkce`). Each code
    /// works once. Defaults to ``ErrorCode/notSupported``.
    func exchangeAuthCode(_ code: String, verifier: String) async throws -> Session

    /// A short name for the server this backend talks to (for HTTP backends, its host), which
    /// the default session store puts in its item name so that staging and production, or two
    /// servers, never share a stored session. Defaults to `"default"`.
    var sessionScope: String { get }
}

extension AuthBackend {
    /// `"default"`.
    public var sessionScope: String { "default" }

    /// ``deleteAccount(_:)``; a code is ``ErrorCode/notSupported``.
    public func deleteAccount(_ session: Session, nonce: String?) async throws {
        try Self.refuseCode(nonce)
        try await deleteAccount(session)
    }

    /// ``ErrorCode/notSupported``.
    public func providerSignInURL(for flow: ProviderSignInFlow) async throws -> URL {
        throw AuthError.notSupported("signing in through a provider's page")
    }

    /// ``ErrorCode/notSupported``.
    public func exchangeAuthCode(_ code: String, verifier: String) async throws -> Session {
        throw AuthError.notSupported("signing in through a provider's page")
    }

    /// ``ErrorCode/notSupported``.
    public func reauthenticate(for session: Session) async throws {
        throw AuthError.notSupported("reauthentication codes")
    }

    /// ``signIn(with:upgrading:)`` with `session`; a code is ``ErrorCode/notSupported``.
    public func linkIdentity(
        _ credential: IDTokenCredential,
        nonce: String?,
        for session: Session
    ) async throws -> Session {
        try Self.refuseCode(nonce)
        return try await signIn(with: credential, upgrading: session)
    }

    /// ``enrollTOTP(friendlyName:for:)``; a code is ``ErrorCode/notSupported``.
    public func enrollTOTP(friendlyName: String?, nonce: String?, for session: Session) async throws -> TOTPEnrollment {
        try Self.refuseCode(nonce)
        return try await enrollTOTP(friendlyName: friendlyName, for: session)
    }

    /// ``unenrollFactor(_:for:)``; a code is ``ErrorCode/notSupported``.
    public func unenrollFactor(_ factorID: String, nonce: String?, for session: Session) async throws {
        try Self.refuseCode(nonce)
        try await unenrollFactor(factorID, for: session)
    }

    /// ``signOut(_:scope:)``; a code is ``ErrorCode/notSupported``.
    public func signOut(_ session: Session, scope: LogoutScope, nonce: String?) async throws {
        try Self.refuseCode(nonce)
        try await signOut(session, scope: scope)
    }

    /// Throws ``ErrorCode/notSupported`` for a reauthentication code, which a backend without
    /// the calls that take one cannot send.
    static func refuseCode(_ nonce: String?) throws {
        guard nonce != nil else { return }
        throw AuthError.notSupported("reauthentication codes")
    }

    /// ``ErrorCode/notSupported``.
    public func sessions(for session: Session) async throws -> [DeviceSession] {
        throw AuthError.notSupported("listing sessions")
    }

    /// ``ErrorCode/notSupported``.
    public func endSession(id: UUID, nonce: String?, for session: Session) async throws -> EndedSession {
        throw AuthError.notSupported("ending one session")
    }

    /// `not_supported`.
    public func enrollTOTP(friendlyName: String?, for session: Session) async throws -> TOTPEnrollment {
        throw AuthError.notSupported("Two-factor sign-in")
    }

    /// `not_supported`.
    public func challengeFactor(_ factorID: String, for session: Session) async throws -> FactorChallenge {
        throw AuthError.notSupported("Two-factor sign-in")
    }

    /// `not_supported`.
    public func verifyFactor(
        _ factorID: String,
        challengeID: String,
        code: String,
        for session: Session
    ) async throws -> Session {
        throw AuthError.notSupported("Two-factor sign-in")
    }

    /// `not_supported`.
    public func unenrollFactor(_ factorID: String, for session: Session) async throws {
        throw AuthError.notSupported("Two-factor sign-in")
    }

    /// Verifies with ``verifyCode(email:code:type:)`` and type `email_change`; a backend with
    /// secure e-mail change reports ``EmailChangeVerification/otherAddressPending`` itself.
    public func verifyEmailChange(email: String, code: String) async throws -> EmailChangeVerification {
        do {
            return .completed(try await verifyCode(email: email, code: code, type: .emailChange))
        } catch let error as AuthError where error.code == .emailChangeConfirmationPending {
            return .otherAddressPending
        }
    }
}
