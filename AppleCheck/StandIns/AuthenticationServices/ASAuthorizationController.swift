// ASAuthorizationController, its delegate and its presentation context provider:
// AuthenticationServices/ASAuthorizationController.h;
// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller.

// ASAuthorizationController.h: NS_SWIFT_UI_ACTOR @protocol ASAuthorizationControllerDelegate <NSObject>
// with @optional methods ("@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol",
// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate).
@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    )
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

// The `@optional` requirements' absent implementations (README, compromises).
extension ASAuthorizationControllerDelegate {
    public func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

// ASAuthorizationController.h: NS_SWIFT_UI_ACTOR @protocol
// ASAuthorizationControllerPresentationContextProviding <NSObject>, @required; absent on watchOS,
// which has no ASPresentationAnchor
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding:
// iOS 13, Mac Catalyst 13.1, macOS 10.15, tvOS 13, visionOS 1).
#if !os(watchOS)
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}
#endif

// ASAuthorizationController.h: @interface ASAuthorizationController : NSObject (not main-actor:
// the documentation declares it "class ASAuthorizationController"; not Sendable)
open class ASAuthorizationController: NSObject {
    public init(authorizationRequests: [ASAuthorizationRequest]) { fatalError() }
    open var authorizationRequests: [ASAuthorizationRequest] { fatalError() }
    weak open var delegate: (any ASAuthorizationControllerDelegate)? {
        get { fatalError() }
        set { fatalError() }
    }

    #if !os(watchOS)
    weak open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)? {
        get { fatalError() }
        set { fatalError() }
    }
    #endif

    open func performRequests() { fatalError() }

    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performautofillassistedrequests():
    // iOS 16, iPadOS 16, visionOS 1 only — API_UNAVAILABLE(macos, tvos, watchos), and unavailable on Mac Catalyst.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(macCatalyst, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    open func performAutoFillAssistedRequests() { fatalError() }

    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/cancel():
    // iOS 16, Mac Catalyst 16, macOS 13, tvOS 18, visionOS 1; not on watchOS.
    @available(iOS 16.0, macOS 13.0, tvOS 18.0, visionOS 1.0, *)
    @available(watchOS, unavailable)
    open func cancel() { fatalError() }
}
