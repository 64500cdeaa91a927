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
}
