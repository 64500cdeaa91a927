// platforms: iOS
// expect: 'excludedCredentials' is only available in iOS 17.4 or newer
// why: passkey registration requests take excludedCredentials from iOS 17.4 (the diagnostic Xcode 15.3
// gives, developer.apple.com/forums/thread/747852); the package deploys to iOS 17.0.
import AuthenticationServices

func exclude(_ request: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest, _ ids: [Data]) {
    request.excludedCredentials = ids.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
}
