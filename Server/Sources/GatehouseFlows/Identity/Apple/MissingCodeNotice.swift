import GatehouseStorage
import Logging
import Synchronization

/// Says in the log, once per client id (the app's bundle id or Services id), that an Apple
/// sign-in came without its `authorization_code` (issue 30). The sign-in is answered normally,
/// but without the code the server holds no Apple refresh token for the user, so deleting the
/// account cannot revoke the user's Apple tokens (App Store Review Guideline 5.1.1(v)). Once per
/// client id keeps a busy app from filling the log; a restart says it again.
final class MissingCodeNotice: Sendable {
    private let logger: Logger
    private let noted = Mutex<Set<String>>([])

    init(logger: Logger) {
        self.logger = logger
    }

    /// Notes a code-less Apple sign-in for `clientID`; logs the first one.
    func note(clientID: String) {
        let first = noted.withLock { $0.insert(clientID).inserted }
        guard first else { return }
        logger.warning(
            "Apple sign-in without authorization_code: Apple's tokens cannot be revoked when this user's account is deleted",
            metadata: [
                "apple.client_id": .string(clientID),
                "hint":
                    "send ASAuthorizationAppleIDCredential.authorizationCode (the SDK's signInWithApple(credential:nonce:))",
            ]
        )
    }
}
