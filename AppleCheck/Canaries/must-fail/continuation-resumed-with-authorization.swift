// platforms: iOS, macOS, visionOS, Mac Catalyst
// expect: sending 'authorization' risks causing data races
// why: the shape of PasskeyAuthorization before issue 30 — a main-actor delegate callback resumes a
// CheckedContinuation with the ASAuthorization it was given. ASAuthorization is not Sendable and
// the callback is main-actor isolated (ASAuthorizationControllerDelegate is NS_SWIFT_UI_ACTOR), so
// Swift 6 refuses it, but only past type checking (region isolation runs on SIL).
import AuthenticationServices

@MainActor
final class Ceremony: NSObject, ASAuthorizationControllerDelegate {
    private var continuation: CheckedContinuation<ASAuthorization, any Error>?

    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        continuation?.resume(returning: authorization)
        continuation = nil
    }
}
