public import Foundation

/// Fire-and-forget forms for button actions: they start the operation and return at once.
/// Progress and errors show in ``AuthService/authSession``; the optional callbacks run on the
/// main actor when the operation ends.
///
/// ```swift
/// Button("Continue as Guest") { auth.signInAnonymously() }
///     .disabled(auth.authSession.isLoading)
/// Button("Send Code") { auth.sendMagicCode(to: email) { codeSent = true } }
/// ```
extension AuthService {
    /// Starts ``signUp(email:password:)``.
    public func signUp(
        email: String,
        password: String,
        onSuccess: (@MainActor (SignUpResult) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.signUp(email: email, password: password) }, onSuccess, onError)
    }

    /// Starts ``signIn(email:password:)``.
    public func signIn(
        email: String,
        password: String,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.signIn(email: email, password: password) }, onSuccess, onError)
    }

    /// Starts ``signInAnonymously()``.
    public func signInAnonymously(
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.signInAnonymously() }, onSuccess, onError)
    }

    /// Starts ``signInWithApple(idToken:nonce:authorizationCode:fullName:)``; on Apple
    /// platforms prefer `signInWithApple(credential:nonce:onSuccess:onError:)`.
    public func signInWithApple(
        idToken: String,
        nonce: String?,
        authorizationCode: String?,
        fullName: PersonNameComponents?,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch(
            {
                try await self.signInWithApple(
                    idToken: idToken,
                    nonce: nonce,
                    authorizationCode: authorizationCode,
                    fullName: fullName
                )
            },
            onSuccess,
            onError
        )
    }

    /// Starts ``signInWithGoogle(idToken:nonce:)``.
    public func signInWithGoogle(
        idToken: String,
        nonce: String?,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.signInWithGoogle(idToken: idToken, nonce: nonce) }, onSuccess, onError)
    }

    /// Starts ``sendMagicCode(to:)``.
    public func sendMagicCode(
        to email: String,
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.sendMagicCode(to: email) }, onSuccess.map { callback in { _ in callback() } }, onError)
    }

    /// Starts ``verifyMagicCode(email:code:)``.
    public func verifyMagicCode(
        email: String,
        code: String,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.verifyMagicCode(email: email, code: code) }, onSuccess, onError)
    }

    /// Starts ``resetPassword(email:)``.
    public func resetPassword(
        email: String,
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch(
            { try await self.resetPassword(email: email) },
            onSuccess.map { callback in { _ in callback() } },
            onError
        )
    }

    /// Starts ``deleteAccount(nonce:)``.
    public func deleteAccount(
        nonce: String? = nil,
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch(
            { try await self.deleteAccount(nonce: nonce) },
            onSuccess.map { callback in { _ in callback() } },
            onError
        )
    }

    /// Starts ``signOut(scope:nonce:)``; sign-out never fails here, so there is only a completion
    /// callback (a refusal to end the other devices' sessions shows in ``operationError``).
    public func signOut(
        scope: LogoutScope = .local,
        nonce: String? = nil,
        onSuccess: (@MainActor () -> Void)? = nil
    ) {
        Task {
            await self.signOut(scope: scope, nonce: nonce)
            onSuccess?()
        }
    }

    /// Starts `body` in a task and reports its end to the callbacks; the body itself updates
    /// the operation status.
    func launch<Result: Sendable>(
        _ body: @escaping @MainActor () async throws -> Result,
        _ onSuccess: (@MainActor (Result) -> Void)?,
        _ onError: (@MainActor (AuthError) -> Void)?
    ) {
        Task {
            do {
                let result = try await body()
                onSuccess?(result)
            } catch {
                onError?(AuthError.wrapping(error))
            }
        }
    }
}
