// platforms: iOS, macOS, visionOS, Mac Catalyst
// why: the fix issue 30 asks for — the callback turns the authorization into a Sendable value
// before it leaves the main actor.
import AuthenticationServices

struct AppleIDAnswer: Sendable {
    var identityToken: Data?
    var authorizationCode: Data?
}

@MainActor
final class Ceremony: NSObject, ASAuthorizationControllerDelegate {
    private var continuation: CheckedContinuation<AppleIDAnswer, any Error>?

    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential else { return }
        continuation?.resume(
            returning: AppleIDAnswer(
                identityToken: credential.identityToken,
                authorizationCode: credential.authorizationCode
            )
        )
        continuation = nil
    }
}
