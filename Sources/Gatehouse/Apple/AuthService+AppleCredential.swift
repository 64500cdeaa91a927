// Apple-only: AuthenticationServices' Sign in with Apple types. Thin glue over
// ``AuthService/signInWithApple(idToken:nonce:authorizationCode:fullName:)``.
#if canImport(AuthenticationServices)
public import AuthenticationServices
import Foundation

extension ASAuthorizationAppleIDProvider {
    /// A Sign in with Apple request for the user's name and e-mail address that carries
    /// `nonce`'s SHA-256; pass the same nonce to
    /// ``AuthService/signInWithApple(credential:nonce:)`` when Apple answers.
    public func gatehouseRequest(nonce: SignInNonce) -> ASAuthorizationAppleIDRequest {
        let request = createRequest()
        request.requestedScopes = [.fullName, .email]
        request.nonce = nonce.sha256
        return request
    }
}

extension AuthService {
    /// Signs in with the credential Sign in with Apple returned: its identity token, its
    /// one-time authorization code and the name Apple gives on the first authorization only,
    /// with the raw value of the `nonce` the request carried.
    @discardableResult
    public func signInWithApple(
        credential: ASAuthorizationAppleIDCredential,
        nonce: SignInNonce
    ) async throws
        -> User
    {
        guard let data = credential.identityToken, let idToken = String(data: data, encoding: .utf8) else {
            throw AuthError(
                code: .idTokenInvalid,
                message: "Sign in with Apple returned no identity token.",
                recoverySuggestion: "Sign in with Apple again."
            )
        }
        return try await signInWithApple(
            idToken: idToken,
            nonce: nonce.raw,
            authorizationCode: credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
            fullName: credential.fullName
        )
    }
}
#endif
