// Passkeys: the platform public-key credential provider, its requests and the credentials it
// returns. AuthenticationServices/ASAuthorizationPlatformPublicKeyCredential*.h,
// ASAuthorizationPublicKeyCredential*.h and ASPublicKeyCredential.h; all iOS 15, Mac Catalyst 15,
// macOS 12, tvOS 16, visionOS 1, and not on watchOS
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider).

// ASAuthorizationPublicKeyCredentialConstants.h: ASAuthorizationPublicKeyCredentialUserVerificationPreference,
// NS_TYPED_EXTENSIBLE_ENUM over NSString
@available(watchOS, unavailable)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, Equatable, RawRepresentable,
    @unchecked Sendable
{
    public init(_ rawValue: String) { fatalError() }
    public init(rawValue: String) { fatalError() }
    public var rawValue: String { fatalError() }
    public static var required: Self { fatalError() }
}

// ASPublicKeyCredential.h: @protocol ASPublicKeyCredential <ASAuthorizationCredential>
@available(watchOS, unavailable)
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    var rawClientDataJSON: Data { get }
    var credentialID: Data { get }
}

// ASAuthorizationPublicKeyCredentialRegistration.h
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    var rawAttestationObject: Data? { get }
}

// ASAuthorizationPublicKeyCredentialAssertion.h: the three are `Data!` ("var userID: Data! { get }",
// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/userid)
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    var rawAuthenticatorData: Data! { get }
    var userID: Data! { get }
    var signature: Data! { get }
}

// ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.h
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    open var relyingPartyIdentifier: String { fatalError() }
    open var userID: Data {
        get { fatalError() }
        set { fatalError() }
    }
    open var name: String {
        get { fatalError() }
        set { fatalError() }
    }
    open var challenge: Data {
        get { fatalError() }
        set { fatalError() }
    }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError() }
        set { fatalError() }
    }
}

// ASAuthorizationPlatformPublicKeyCredentialAssertionRequest.h
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    open var challenge: Data {
        get { fatalError() }
        set { fatalError() }
    }
    open var relyingPartyIdentifier: String {
        get { fatalError() }
        set { fatalError() }
    }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError() }
        set { fatalError() }
    }
}

// ASAuthorizationPlatformPublicKeyCredentialProvider.h
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    public init(relyingPartyIdentifier: String) { fatalError() }
    open var relyingPartyIdentifier: String { fatalError() }
    open func createCredentialRegistrationRequest(
        challenge: Data,
        name: String,
        userID: Data
    ) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest { fatalError() }
    open func createCredentialAssertionRequest(
        challenge: Data
    ) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        fatalError()
    }
}

// ASAuthorizationPlatformPublicKeyCredentialRegistration.h
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    open var rawClientDataJSON: Data { fatalError() }
    open var credentialID: Data { fatalError() }
    open var rawAttestationObject: Data? { fatalError() }
}

// ASAuthorizationPlatformPublicKeyCredentialAssertion.h
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var rawClientDataJSON: Data { fatalError() }
    open var credentialID: Data { fatalError() }
    open var rawAuthenticatorData: Data! { fatalError() }
    open var userID: Data! { fatalError() }
    open var signature: Data! { fatalError() }
}

// ASAuthorizationPublicKeyCredentialDescriptor.h: @protocol ASAuthorizationPublicKeyCredentialDescriptor
// <NSObject, NSSecureCoding, NSCopying> with `credentialID`
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialdescriptor).
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialDescriptor: NSObjectProtocol {
    var credentialID: Data { get set }
}

// ASAuthorizationPlatformPublicKeyCredentialDescriptor.h: API_AVAILABLE(macos(12.0), ios(15.0))
// API_UNAVAILABLE(watchos, tvos) @interface ASAuthorizationPlatformPublicKeyCredentialDescriptor :
// NSObject <ASAuthorizationPublicKeyCredentialDescriptor>, `- initWithCredentialID:(NSData *)`
// NS_DESIGNATED_INITIALIZER, `init` NS_UNAVAILABLE; the 2026 documentation adds tvOS 16
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialdescriptor:
// iOS 15, Mac Catalyst 15, macOS 12, tvOS 16, visionOS 1). Not Sendable here (see ASAuthorization.swift).
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, ASAuthorizationPublicKeyCredentialDescriptor {
    public init(credentialID: Data) { fatalError() }
    open var credentialID: Data {
        get { fatalError() }
        set { fatalError() }
    }
}

// ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest: a protocol that declares
// `excludedCredentials` ("var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]?
// { get set }"), adopted by ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest ("Conforming
// Types"), iOS 17.4, iPadOS 17.4, Mac Catalyst 16.6, macOS 13.5 — and not tvOS, watchOS or visionOS
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationwebbrowserplatformpublickeycredentialregistrationrequest,
// …/excludedcredentials). The platform registration request has no `excludedCredentials` of its own:
// an app reaches it through this conformance, so it exists only where the protocol does.
// The protocol's other members (clientData, shouldShowHybridTransport) are not used by the SDK.
@available(iOS 17.4, macCatalyst 16.6, macOS 13.5, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public protocol ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest {
    var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? { get set }
}

@available(iOS 17.4, macCatalyst 16.6, macOS 13.5, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
extension ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest:
    ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest
{
    public var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? {
        get { fatalError() }
        set { fatalError() }
    }
}
