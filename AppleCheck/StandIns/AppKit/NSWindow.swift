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
