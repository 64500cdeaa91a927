// Apple-only: AuthenticationServices' ASAuthorizationAppleIDProvider.getCredentialState(forUserID:completion:)
// and its credentialRevokedNotification (iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1).
// Thin glue: what an answer or a failure means is AuthService.checkAppleCredential() and
// AuthError.appleCredentialStateFailure(domain:code:), tested on Linux.
#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

extension AppleCredentialStateProvider {
    /// Sign in with Apple's own answer, from `ASAuthorizationAppleIDProvider`.
    ///
    /// The completion handler is `@Sendable` and called on an arbitrary queue; it receives a
    /// `CredentialState` (an enum) and an optional error, both converted to our Sendable values
    /// before the continuation resumes.
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/getcredentialstate(foruserid:completion:)
    public static let appleID = AppleCredentialStateProvider { appleUserID in
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AppleCredentialState, any Error>) in
            ASAuthorizationAppleIDProvider().getCredentialState(forUserID: appleUserID) { state, error in
                if let error {
                    let failure = error as NSError
                    continuation.resume(
                        throwing: AuthError.appleCredentialStateFailure(domain: failure.domain, code: failure.code)
                    )
                    return
                }
                switch state {
                case .authorized: continuation.resume(returning: .authorized)
                case .revoked: continuation.resume(returning: .revoked)
                case .notFound: continuation.resume(returning: .notFound)
                case .transferred: continuation.resume(returning: .transferred)
                @unknown default:
                    // A state this SDK does not know yet is no definitive answer: the session stays.
                    continuation.resume(throwing: AuthError.appleCredentialStateUnknown())
                }
            }
        }
    }

    /// The notification Sign in with Apple posts when the person stops using it with the app
    /// while the app runs.
    static var credentialRevokedNotification: Notification.Name {
        ASAuthorizationAppleIDProvider.credentialRevokedNotification
    }
}
#endif
