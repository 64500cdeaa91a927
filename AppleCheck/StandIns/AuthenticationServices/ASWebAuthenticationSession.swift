// ASWebAuthenticationSession, its presentation context provider and its error, as the SDK's
// WebAuthenticationSessionBrowser uses them: AuthenticationServices/ASWebAuthenticationSession.h;
// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession
// (2026: iOS 12, iPadOS 12, Mac Catalyst 13, macOS 10.15, tvOS 16, visionOS 1, watchOS 6.2; all
// at or below the deployment targets, so left out as the file header of ASAuthorization.swift says).
// The header is audited for sendability and the class is not NS_SWIFT_SENDABLE, not main-actor
// ("class ASWebAuthenticationSession"): not Sendable here.

// ASWebAuthenticationSession.h: typedef void (^ASWebAuthenticationSessionCompletionHandler)(NSURL *
// _Nullable callbackURL, NSError * _Nullable error), NS_SWIFT_NAME(ASWebAuthenticationSession.CompletionHandler):
// "typealias CompletionHandler = (URL?, (any Error)?) -> Void", not @Sendable
// (https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/completionhandler).
open class ASWebAuthenticationSession: NSObject {
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    // init(url:callbackURLScheme:completionHandler:): iOS 12, macOS 10.15, tvOS 16, visionOS 1,
    // watchOS 6.2; API_TO_BE_DEPRECATED in favour of init(url:callback:completionHandler:) (iOS 17.4,
    // macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4), which Swift imports as deprecated in
    // version 100000 (no warning at any real deployment target): "Deprecated in iOS 100000.0"
    // (https://onestack.dev/ios-reference/AuthenticationServices/ASWebAuthenticationSession, SDK 27.1;
    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)-7fpox).
    @available(iOS, deprecated: 100000, renamed: "init(url:callback:completionHandler:)")
    @available(macOS, deprecated: 100000, renamed: "init(url:callback:completionHandler:)")
    @available(tvOS, deprecated: 100000, renamed: "init(url:callback:completionHandler:)")
    @available(watchOS, deprecated: 100000, renamed: "init(url:callback:completionHandler:)")
    @available(visionOS, deprecated: 100000, renamed: "init(url:callback:completionHandler:)")
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) { fatalError() }

    // presentationContextProvider: weak, iOS 13, Mac Catalyst 13.1, macOS 10.15, visionOS 1; not
    // tvOS, not watchOS (no ASPresentationAnchor there)
    // (https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding
    // lists the same platforms for the protocol).
    #if !os(watchOS)
    @available(tvOS, unavailable)
    weak open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)? {
        get { fatalError() }
        set { fatalError() }
    }
    #endif

    // prefersEphemeralWebBrowserSession: iOS 13, Mac Catalyst 13.1, macOS 10.15, visionOS 1,
    // watchOS 6.2; not tvOS
    // (https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession).
    @available(tvOS, unavailable)
    open var prefersEphemeralWebBrowserSession: Bool {
        get { fatalError() }
        set { fatalError() }
    }

    // - (BOOL)start; - (void)cancel; (every platform of the class)
    open func start() -> Bool { fatalError() }
    open func cancel() { fatalError() }
}

// ASWebAuthenticationSession.h: API_UNAVAILABLE(watchos, tvos) NS_SWIFT_UI_ACTOR @protocol
// ASWebAuthenticationPresentationContextProviding <NSObject>, @required
// presentationAnchorForWebAuthenticationSession: ("@MainActor protocol
// ASWebAuthenticationPresentationContextProviding : NSObjectProtocol", iOS 13, Mac Catalyst 13.1,
// macOS 10.15, visionOS 1;
// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)).
#if !os(watchOS)
@available(tvOS, unavailable)
@MainActor
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}
#endif

// ASWebAuthenticationSession.h: typedef NS_ERROR_ENUM(ASWebAuthenticationSessionErrorDomain,
// ASWebAuthenticationSessionErrorCode) { CanceledLogin = 1, PresentationContextNotProvided = 2,
// PresentationContextInvalid = 3 }; the last two iOS 13, Mac Catalyst 13.1, macOS 10.15, visionOS 1
// only (https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code/presentationcontextinvalid).
// Imported as a struct with a nested Code, as ASAuthorizationError is.
public struct ASWebAuthenticationSessionError: Error, Hashable, Sendable {
    public enum Code: Int, @unchecked Sendable, Equatable {
        case canceledLogin = 1
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case presentationContextNotProvided = 2
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case presentationContextInvalid = 3
    }
    public init(_ code: Code, userInfo: [String: Any] = [:]) { fatalError() }
    public var code: Code { fatalError() }
    public var errorCode: Int { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError() }
}
