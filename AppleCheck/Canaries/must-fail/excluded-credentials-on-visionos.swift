// platforms: visionOS
// expect: 'excludedCredentials' is unavailable in visionOS
// why: the protocol that declares excludedCredentials exists on iOS, Mac Catalyst and macOS only.
import AuthenticationServices

func exclude(_ request: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest, _ ids: [Data]) {
    if #available(iOS 17.4, *) {
        request.excludedCredentials = ids.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
    }
}
