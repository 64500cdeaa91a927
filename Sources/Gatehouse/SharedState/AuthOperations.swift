/// The operations of the ``AuthService`` an ``AuthSession`` value came from, in the shape seed
/// 002's `@Shared(.instantAuth)` API gives them: each starts at once and returns, its progress
/// and error show in the service's ``AuthService/authSession`` (so in every value read after
/// it), and the optional callbacks run on the main actor when it ends.
///
/// Reach them through ``AuthSession/operations``; `GatehouseSharing` forwards
/// `$auth.signInAsGuest()` and the others here.
///
/// ```swift
/// auth.authSession.operations?.sendMagicCode(to: email) { codeSent = true }
/// ```
///
/// A value whose service has been released answers every operation with
/// ``AuthError/disconnectedSession()`` (and changes nothing).
@MainActor
public struct AuthOperations: Sendable {
    private weak var service: AuthService?
    /// The identity of the service, kept for equality after it is released.
    private let serviceID: ObjectIdentifier

    init(service: AuthService) {
        self.service = service
        self.serviceID = ObjectIdentifier(service)
    }

    /// Signs in as a guest: a user with an id and no e-mail, upgraded later
    /// (``AuthService/signInAnonymously()``).
    public func signInAsGuest(
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.signInAnonymously(onSuccess: onSuccess, onError: Self.adapt(onError))
    }

    /// Sends a sign-in code to `email` (``AuthService/sendMagicCode(to:)``); then ask for the
    /// code and call ``verifyMagicCode(email:code:onSuccess:onError:)``.
    public func sendMagicCode(
        to email: String,
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.sendMagicCode(to: email, onSuccess: onSuccess, onError: Self.adapt(onError))
    }

    /// Verifies the code sent to `email` and signs the user in
    /// (``AuthService/verifyMagicCode(email:code:)``).
    public func verifyMagicCode(
        email: String,
        code: String,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.verifyMagicCode(
            email: email,
            code: code,
            onSuccess: onSuccess,
            onError: Self.adapt(onError)
        )
    }

    /// Signs in with an e-mail address and password (``AuthService/signIn(email:password:)``).
    public func signIn(
        email: String,
        password: String,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.signIn(email: email, password: password, onSuccess: onSuccess, onError: Self.adapt(onError))
    }

    /// Creates an account (``AuthService/signUp(email:password:)``).
    public func signUp(
        email: String,
        password: String,
        onSuccess: (@MainActor (SignUpResult) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.signUp(email: email, password: password, onSuccess: onSuccess, onError: Self.adapt(onError))
    }

    /// Upgrades the signed-in guest to a permanent account with an e-mail address and password,
    /// keeping its id (``AuthService/upgradeGuest(email:password:)``).
    public func upgradeGuest(
        email: String,
        password: String,
        onSuccess: (@MainActor (GuestUpgradeOutcome) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.launch(
            { try await service.upgradeGuest(email: email, password: password) },
            onSuccess,
            Self.adapt(onError)
        )
    }

    /// Signs out (``AuthService/signOut(scope:nonce:)``). Sign-out never fails: `onError` is called
    /// only when this value is no longer connected to a service.
    public func signOut(
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        guard let service else { return disconnected(onError) }
        service.signOut(onSuccess: onSuccess)
    }

    /// Clears the error of the last operation (``AuthService/clearError()``).
    public func clearError() {
        service?.clearError()
    }

    /// Hands an ``AuthError`` to a callback that takes any error, as seed 002's do.
    private static func adapt(_ onError: (@MainActor (any Error) -> Void)?) -> (@MainActor (AuthError) -> Void)? {
        guard let onError else { return nil }
        return { (error: AuthError) in onError(error) }
    }

    private func disconnected(_ onError: (@MainActor (any Error) -> Void)?) {
        onError?(AuthError.disconnectedSession())
    }
}

extension AuthOperations: Equatable {
    /// Two values are equal when they come from the same service.
    public nonisolated static func == (lhs: AuthOperations, rhs: AuthOperations) -> Bool {
        lhs.serviceID == rhs.serviceID
    }
}
