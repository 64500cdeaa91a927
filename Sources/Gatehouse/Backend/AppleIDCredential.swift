public import Foundation

/// What Sign in with Apple returned (`ASAuthorizationAppleIDCredential`), as a Sendable value:
/// the identity token, the one-time authorization code, and the name and address Apple gives on
/// the first authorization only.
///
/// On Apple platforms `AppleIDCredential(credential)` reads one from the system's credential;
/// ``AuthService/signInWithApple(_:nonce:)`` sends all of it.
public struct AppleIDCredential: Sendable, Equatable {
    /// The user identifier Sign in with Apple gives the app (the identity token's `sub`).
    public var user: String
    /// The identity token (a JWT), as Apple returns it.
    public var identityToken: Data?
    /// The one-time authorization code, which the server exchanges for Apple's refresh token so
    /// that deleting the account can revoke it.
    public var authorizationCode: Data?
    /// The name the person shared, on the first authorization only.
    public var fullName: PersonNameComponents?
    /// The address the person shared, on the first authorization only.
    public var email: String?

    /// Creates a credential.
    public init(
        user: String,
        identityToken: Data?,
        authorizationCode: Data?,
        fullName: PersonNameComponents? = nil,
        email: String? = nil
    ) {
        self.user = user
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.fullName = fullName
        self.email = email
    }

    /// The ID-token credential the backend signs in with, for the request that carried `nonce`.
    ///
    /// - Throws: ``ErrorCode/idTokenInvalid`` when Apple returned no identity token.
    public func idTokenCredential(nonce: SignInNonce) throws -> IDTokenCredential {
        guard let identityToken, let idToken = String(data: identityToken, encoding: .utf8), !idToken.isEmpty else {
            throw AuthError(
                code: .idTokenInvalid,
                message: "Sign in with Apple returned no identity token.",
                recoverySuggestion: "Sign in with Apple again."
            )
        }
        return IDTokenCredential(
            provider: .apple,
            idToken: idToken,
            nonce: nonce.raw,
            authorizationCode: authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
            fullName: fullName.flatMap { Self.hasAnyPart($0) ? $0 : nil }
        )
    }

    /// Whether Apple gave any part of a name (later authorizations give an empty one).
    private static func hasAnyPart(_ name: PersonNameComponents) -> Bool {
        [name.givenName, name.middleName, name.familyName, name.nickname, name.namePrefix, name.nameSuffix]
            .contains { !($0 ?? "").isEmpty }
    }
}

extension AuthService {
    /// Signs in with what Sign in with Apple returned: its identity token, its authorization
    /// code and the name Apple gives on the first authorization, with the raw value of the
    /// `nonce` the request carried (`ASAuthorizationAppleIDRequest.configure(for:)`). A signed-in
    /// guest is upgraded in place where the backend allows.
    ///
    /// On Apple platforms, `signInWithApple(credential:nonce:)` and
    /// `signInWithApple(authorization:nonce:)` take the system's values directly.
    @discardableResult
    public func signInWithApple(_ credential: AppleIDCredential, nonce: SignInNonce) async throws -> User {
        let idToken: IDTokenCredential
        do {
            idToken = try credential.idTokenCredential(nonce: nonce)
        } catch {
            return try await operation { throw error }
        }
        return try await signIn(with: idToken)
    }

    /// Starts ``signInWithApple(_:nonce:)``; the callbacks run on the main actor.
    public func signInWithApple(
        _ credential: AppleIDCredential,
        nonce: SignInNonce,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (AuthError) -> Void)? = nil
    ) {
        launch({ try await self.signInWithApple(credential, nonce: nonce) }, onSuccess, onError)
    }
}
