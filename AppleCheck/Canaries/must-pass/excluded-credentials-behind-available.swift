// platforms: iOS, Mac Catalyst, macOS
// why: the shape of PasskeyRegistrationRequest.platformRequest(): behind `#available`, where the
// protocol exists.
import AuthenticationServices

func exclude(_ request: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest, _ ids: [Data]) {
    #if os(iOS) || os(macOS)
    if #available(iOS 17.4, macOS 14.4, *) {
        request.excludedCredentials = ids.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
    }
    #endif
}
