// Sign in with Apple: AuthenticationServices/ASAuthorizationAppleIDProvider.h,
// ASAuthorizationOpenIDRequest.h, ASAuthorizationAppleIDRequest.h and ASAuthorizationAppleIDCredential.h;
// every platform the package declares, since iOS 13/macOS 10.15/tvOS 13/watchOS 6
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider).

// ASAuthorizationOpenIDRequest.h
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    open var requestedScopes: [ASAuthorization.Scope]? {
        get { fatalError() }
        set { fatalError() }
    }
    open var nonce: String? {
        get { fatalError() }
        set { fatalError() }
    }
}

// ASAuthorizationAppleIDRequest.h
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {}

// ASAuthorizationAppleIDCredential.h
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    open var user: String { fatalError() }
    open var authorizationCode: Data? { fatalError() }
    open var identityToken: Data? { fatalError() }
    open var email: String? { fatalError() }
    open var fullName: PersonNameComponents? { fatalError() }
}

// ASAuthorizationAppleIDProvider.h
open class ASAuthorizationAppleIDProvider: NSObject, ASAuthorizationProvider {
    public override init() { fatalError() }

    // ASAuthorizationAppleIDProvider.h: typedef NS_ENUM(NSInteger, ASAuthorizationAppleIDProviderCredentialState)
    // (not NS_CLOSED_ENUM: a non-frozen enum)
    public enum CredentialState: Int, @unchecked Sendable {
        case revoked = 0
        case authorized = 1
        case notFound = 2
        case transferred = 3
    }

    open func createRequest() -> ASAuthorizationAppleIDRequest { fatalError() }

    // https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/getcredentialstate(foruserid:completion:):
    // "func getCredentialState(forUserID userID: String, completion: @escaping @Sendable
    // (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void)", and the async
    // variant Swift derives from it.
    open func getCredentialState(
        forUserID userID: String,
        completion: @escaping @Sendable (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void
    ) { fatalError() }
    open func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState {
        fatalError()
    }

    // ASAuthorizationAppleIDProvider.h: AS_EXTERN NSNotificationName const
    // ASAuthorizationAppleIDProviderCredentialRevokedNotification, imported as
    // `class let credentialRevokedNotification: NSNotification.Name`.
    public static let credentialRevokedNotification = NSNotification.Name(
        "ASAuthorizationAppleIDProviderCredentialRevokedNotification"
    )
}
