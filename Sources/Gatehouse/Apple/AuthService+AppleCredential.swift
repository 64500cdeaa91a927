// Apple-only: AuthenticationServices' Sign in with Apple types (iOS 13, macOS 10.15, tvOS 13,
// watchOS 6, visionOS 1): ASAuthorizationAppleIDRequest (requestedScopes and nonce, from
// ASAuthorizationOpenIDRequest), ASAuthorizationAppleIDProvider.createRequest(), ASAuthorization.credential
// and ASAuthorizationAppleIDCredential (user, identityToken, authorizationCode, fullName, email).
// None of them is Sendable: each is read synchronously, on the caller's actor, into
// AppleIDCredential (a Sendable value) before anything awaits. Thin glue over
// AuthService.signInWithApple(_:nonce:), tested on Linux.
// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential
#if canImport(AuthenticationServices)
public import AuthenticationServices
import Foundation

extension ASAuthorizationAppleIDRequest {
    /// Asks for the person's name and e-mail address and carries `nonce`'s SHA-256: for
    /// SwiftUI's `SignInWithAppleButton(onRequest:)`, which hands the app a request to configure.
    ///
    /// ```swift
    /// @State private var nonce = SignInNonce()
    /// SignInWithAppleButton(.signIn) { request in
    ///     nonce = SignInNonce()
    ///     request.configure(for: nonce)
    /// } onCompletion: { result in
    ///     if case .success(let authorization) = result {
    ///         auth.signInWithApple(authorization: authorization, nonce: nonce)
    ///     }
    /// }
    /// ```
    public func configure(for nonce: SignInNonce) {
        requestedScopes = [.fullName, .email]
        self.nonce = nonce.sha256
    }
}

extension ASAuthorizationAppleIDProvider {
    /// A new Sign in with Apple request configured for `nonce` (``ASAuthorizationAppleIDRequest/configure(for:)``),
    /// for an `ASAuthorizationController`.
    public func gatehouseRequest(nonce: SignInNonce) -> ASAuthorizationAppleIDRequest {
        let request = createRequest()
        request.configure(for: nonce)
        return request
    }
}

extension AppleIDCredential {
    /// The values of the system's credential.
    public init(_ credential: ASAuthorizationAppleIDCredential) {
        self.init(
            user: credential.user,
            identityToken: credential.identityToken,
            authorizationCode: credential.authorizationCode,
            fullName: credential.fullName,
            email: credential.email
        )
    }
}

extension AuthService {
    /// Signs in with the credential Sign in with Apple returned: its identity token, its
    /// one-time authorization code and the name Apple gives on the first authorization only,
    /// with the `nonce` the request carried. The documented way to sign in with Apple.
    @discardableResult
    public func signInWithApple(credential: ASAuthorizationAppleIDCredential, nonce: SignInNonce) async throws -> User {
        try await signInWithApple(AppleIDCredential(credential), nonce: nonce)
    }

    /// Starts ``signInWithApple(credential:nonce:)``; the callbacks run on the main actor.
    public func signInWithApple(
        credential: ASAuthorizationAppleIDCredential,
        nonce: SignInNonce,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        signInWithApple(AppleIDCredential(credential), nonce: nonce, onSuccess: onSuccess, onError: onError)
    }

    /// Starts a sign-in with the Apple ID credential of `authorization` (what
    /// `SignInWithAppleButton`'s `onCompletion` and `ASAuthorizationControllerDelegate` receive);
    /// the callbacks run on the main actor. Another kind of credential fails with
    /// ``ErrorCode/invalidResponse``.
    public func signInWithApple(
        authorization: ASAuthorization,
        nonce: SignInNonce,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential else {
            launch(
                { () async throws -> User in try await self.operation { throw AuthError.unexpectedAppleCredential() } },
                onSuccess,
                onError
            )
            return
        }
        signInWithApple(credential: credential, nonce: nonce, onSuccess: onSuccess, onError: onError)
    }
}

extension AuthError {
    /// An authorization that carries no Sign in with Apple credential.
    static func unexpectedAppleCredential() -> AuthError {
        AuthError(code: .invalidResponse, message: "The system returned a credential that is not Sign in with Apple's.")
    }
}
#endif
