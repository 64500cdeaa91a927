// platforms: iOS, Mac Catalyst, visionOS, macOS
// why: the condition issue 30 asks for keeps AutoFill out of Mac Catalyst (and macOS).
import AuthenticationServices

@MainActor
func begin(_ controller: ASAuthorizationController) {
    #if os(visionOS) || (os(iOS) && !targetEnvironment(macCatalyst))
    controller.performAutoFillAssistedRequests()
    #else
    controller.performRequests()
    #endif
}
