// platforms: Mac Catalyst
// expect: 'performAutoFillAssistedRequests\(\)' is unavailable in Mac Catalyst
// why: `os(iOS)` is true on Mac Catalyst, where performAutoFillAssistedRequests is unavailable
// (the PasskeyAuthorization shape before issue 30).
import AuthenticationServices

@MainActor
func begin(_ controller: ASAuthorizationController) {
    #if os(iOS) || os(visionOS)
    controller.performAutoFillAssistedRequests()
    #endif
}
