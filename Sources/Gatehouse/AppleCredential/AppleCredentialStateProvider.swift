// Apple-only call sites in this file: AppleCredentialStateProvider.appleID (defined behind
// canImport(AuthenticationServices) in Apple/AppleCredentialStateProvider+AppleID.swift) as the default.
/// Asks Sign in with Apple about a user: the seam ``AuthService`` checks an Apple-linked user
/// through at launch (``AuthService/checkAppleCredential()``).
///
/// On Apple platforms ``platformDefault`` is `appleID`, over
/// `ASAuthorizationAppleIDProvider.getCredentialState(forUserID:)`; elsewhere there is none.
/// Tests and previews pass their own:
///
/// ```swift
/// let provider = AppleCredentialStateProvider { _ in .revoked }
/// let auth = AuthService(backend: backend, configuration: .init(appleCredentialState: provider))
/// ```
public struct AppleCredentialStateProvider: Sendable {
    /// The state of the Apple user with this identifier (the `sub` of their Apple identity);
    /// throws when Apple gives no answer (offline, not entitled).
    public var credentialState: @Sendable (_ appleUserID: String) async throws -> AppleCredentialState

    /// Creates a provider from its one operation.
    public init(credentialState: @escaping @Sendable (_ appleUserID: String) async throws -> AppleCredentialState) {
        self.credentialState = credentialState
    }

    /// The provider an app gets by default: Sign in with Apple where AuthenticationServices
    /// exists, none elsewhere.
    public static var platformDefault: AppleCredentialStateProvider? {
        #if canImport(AuthenticationServices)
        return .appleID
        #else
        return nil
        #endif
    }
}
