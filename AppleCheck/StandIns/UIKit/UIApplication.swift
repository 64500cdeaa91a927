// The UIKit the SDK uses: UIApplication and its notifications, and UIWindow (AuthenticationServices'
// ASPresentationAnchor on iOS, Mac Catalyst, tvOS and visionOS).
// UIKit exists on watchOS too, but without these: UIKit/UIApplication.h, UIResponder.h, UIView.h
// and UIWindow.h of the watchOS SDK declare them `API_UNAVAILABLE(watchos)`, transcribed here as
// `@available(watchOS, unavailable)`. All are NS_SWIFT_UI_ACTOR (`@MainActor`), so none is Sendable.
@_exported import Foundation

// UIKit/UIResponder.h: UIKIT_EXTERN API_AVAILABLE(ios(2.0)) API_UNAVAILABLE(watchos) NS_SWIFT_UI_ACTOR
// @interface UIResponder : NSObject
@available(watchOS, unavailable)
@MainActor
open class UIResponder: NSObject {}

// UIKit/UIView.h: UIKIT_EXTERN API_AVAILABLE(ios(2.0)) API_UNAVAILABLE(watchos) NS_SWIFT_UI_ACTOR
// @interface UIView : UIResponder
@available(watchOS, unavailable)
@MainActor
open class UIView: UIResponder {}

// UIKit/UIWindow.h: UIKIT_EXTERN API_AVAILABLE(ios(2.0)) API_UNAVAILABLE(watchos) NS_SWIFT_UI_ACTOR
// @interface UIWindow : UIView
@available(watchOS, unavailable)
@MainActor
open class UIWindow: UIView {}

// UIKit/UIApplication.h: UIKIT_EXTERN API_AVAILABLE(ios(2.0)) API_UNAVAILABLE(watchos) NS_SWIFT_UI_ACTOR
// @interface UIApplication : UIResponder
@available(watchOS, unavailable)
@MainActor
open class UIApplication: UIResponder {
    // UIApplication.h: @property(class, nonatomic, readonly) UIApplication *sharedApplication
    // NS_EXTENSION_UNAVAILABLE_IOS("Use view controller based solutions where appropriate instead.");
    @available(
        iOSApplicationExtension,
        unavailable,
        message: "Use view controller based solutions where appropriate instead."
    )
    @available(
        macCatalystApplicationExtension,
        unavailable,
        message: "Use view controller based solutions where appropriate instead."
    )
    open class var shared: UIApplication { fatalError() }

    // UIApplication.h: UIKIT_EXTERN NSNotificationName const UIApplicationDidBecomeActiveNotification,
    // imported as `nonisolated class let didBecomeActiveNotification: NSNotification.Name`
    // (https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification).
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name(
        "UIApplicationDidBecomeActiveNotification"
    )

    // UIApplication.h: UIKIT_EXTERN NSNotificationName const UIApplicationProtectedDataDidBecomeAvailable
    // API_AVAILABLE(ios(4.0)); https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification
    // (iOS 4, Mac Catalyst 13.1, tvOS, visionOS 1): `nonisolated class let`.
    nonisolated public static let protectedDataDidBecomeAvailableNotification = NSNotification.Name(
        "UIApplicationProtectedDataDidBecomeAvailable"
    )

    // UIApplication.h: UIApplicationDidEnterBackgroundNotification and
    // UIApplicationWillEnterForegroundNotification (iOS 4, Mac Catalyst 13.1, tvOS, visionOS 1),
    // imported as `nonisolated class let …: NSNotification.Name`
    // (https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification,
    // https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification).
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name(
        "UIApplicationDidEnterBackgroundNotification"
    )
    nonisolated public static let willEnterForegroundNotification = NSNotification.Name(
        "UIApplicationWillEnterForegroundNotification"
    )

    // UIApplication.h: typedef NS_ENUM(NSInteger, UIApplicationState), imported as
    // UIApplication.State, a non-frozen enum, Sendable
    // (https://developer.apple.com/documentation/uikit/uiapplication/state).
    public enum State: Int, @unchecked Sendable {
        case active = 0
        case inactive = 1
        case background = 2
    }

    // https://developer.apple.com/documentation/uikit/uiapplication/applicationstate:
    // "@MainActor var applicationState: UIApplication.State { get }" (iOS 4, Mac Catalyst 13.1,
    // tvOS, visionOS 1).
    open var applicationState: UIApplication.State { fatalError() }

    // https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:):
    // "nonisolated func beginBackgroundTask(withName taskName: String?, expirationHandler handler:
    // (() -> Void)? = nil) -> UIBackgroundTaskIdentifier" ("This method can be safely called on a
    // non-main thread"; the handler is called "synchronously on the main thread"). The page prints the
    // handler without its attributes; the header marks the block NS_SWIFT_UI_ACTOR NS_SWIFT_SENDABLE,
    // imported as `(@MainActor @Sendable () -> Void)?` — as code compiled by Xcode 16 and 26 declares it
    // when it restates the method in a protocol UIApplication conforms to (mullvad/mullvadvpn-app
    // ios/MullvadVPN/TunnelManager/UIApplication+Extensions.swift). iOS 7, Mac Catalyst 13.1, tvOS, visionOS 1.
    nonisolated open func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { fatalError() }

    // https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:):
    // "nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier)".
    nonisolated open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) { fatalError() }
}

// UIApplication.h: typedef NSUInteger UIBackgroundTaskIdentifier NS_TYPED_ENUM, imported as a struct
// (https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier: "struct
// UIBackgroundTaskIdentifier", Equatable, Hashable, RawRepresentable, Sendable; `init(rawValue: Int)`,
// `static let invalid`).
@available(watchOS, unavailable)
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public init(rawValue: Int) { fatalError() }
    public var rawValue: Int { fatalError() }
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

// UIKit/UITextInputTraits.h: typedef NSString * UITextContentType NS_TYPED_ENUM, imported as a
// struct; UITextContentTypeUsername (iOS 11) as `static let username: UITextContentType`
// (https://developer.apple.com/documentation/uikit/uitextcontenttype,
// …/username). Only the constant the sample app sets. Its watchOS availability is not transcribed:
// declared unavailable there, as SwiftUI's watchOS modifier takes a WKTextContentType instead.
@available(watchOS, unavailable)
public struct UITextContentType: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public init(_ rawValue: String) { fatalError() }
    public init(rawValue: String) { fatalError() }
    public var rawValue: String { fatalError() }
    public static var username: UITextContentType { fatalError() }
}
