// The AppKit the SDK uses: NSWindow (AuthenticationServices' ASPresentationAnchor on macOS).
// AppKit exists on macOS only (not Mac Catalyst, which has UIKit). AppKit/NSResponder.h,
// and NSWindow.h: API_UNAVAILABLE_BEGIN(ios) … NS_SWIFT_UI_ACTOR (`@MainActor`), so
// none is Sendable; https://developer.apple.com/documentation/appkit/nswindow.
@_exported import Foundation

// AppKit/NSResponder.h: NS_SWIFT_UI_ACTOR @interface NSResponder : NSObject <NSCoding>
@MainActor
open class NSResponder: NSObject {}

// AppKit/NSWindow.h: NS_SWIFT_UI_ACTOR @interface NSWindow : NSResponder
@MainActor
open class NSWindow: NSResponder {}

// AppKit/NSApplication.h: NS_SWIFT_UI_ACTOR @interface NSApplication : NSResponder
// (https://developer.apple.com/documentation/appkit/nsapplication: "@MainActor class NSApplication").
@MainActor
open class NSApplication: NSResponder {
    // NSApplication.h: APPKIT_EXTERN NSNotificationName NSApplicationDidBecomeActiveNotification,
    // imported as `class let didBecomeActiveNotification: NSNotification.Name`
    // (https://developer.apple.com/documentation/appkit/nsapplication/didbecomeactivenotification:
    // "The system posts this notification on the main actor"). The page does not print
    // `nonisolated` (UIKit's pages do, for UIApplication's names), so the constant is isolated to
    // the main actor like its class; declared as a read-only class property, as Swift imports a
    // constant.
    open class var didBecomeActiveNotification: NSNotification.Name { fatalError() }
}
