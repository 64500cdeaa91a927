// platforms: tvOS
// expect: 'cancel\(\)' is only available in tvOS 18\.0 or newer
// why: a framework API introduced after the deployment target: ASAuthorizationController.cancel()
// is tvOS 18.0+ (iOS 16, macOS 13), and the package declares tvOS 17.
import AuthenticationServices

func stop(_ controller: ASAuthorizationController) {
    controller.cancel()
}
