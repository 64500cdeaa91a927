// The WatchKit of watchOS (https://developer.apple.com/documentation/watchkit/wkapplication:
// "@MainActor class WKApplication", watchOS 7+): the application object whose notifications the
// SDK's watchOS lifecycle observers follow. The module exists on watchOS only, so
// `canImport(WatchKit)` is true there only, as on Apple platforms.
@_exported import Foundation

// WatchKit/WKApplication.h: NS_SWIFT_UI_ACTOR @interface WKApplication : NSObject
@MainActor
open class WKApplication: NSObject {
    // WKApplication.h: + (WKApplication *)sharedApplication, imported as `class func shared()`.
    open class func shared() -> WKApplication { fatalError() }

    // The C constants WKApplicationDidBecomeActiveNotification, …DidEnterBackgroundNotification and
    // …WillEnterForegroundNotification (declared in WatchKit/WKExtension.h, as the objc2-watch-kit
    // header translation places them: https://docs.rs/objc2-watch-kit/0.3.2/objc2_watch_kit/static.WKApplicationDidBecomeActiveNotification.html),
    // watchOS 7, imported as `class let …: NSNotification.Name`
    // (https://developer.apple.com/documentation/watchkit/wkapplication/didbecomeactivenotification,
    // …/didenterbackgroundnotification, …/willenterforegroundnotification). The pages do not print
    // `nonisolated` (UIKit's do, for UIApplication's names), so the constants are isolated to the
    // main actor like their class; declared as read-only class properties, as Swift imports a constant.
    open class var didBecomeActiveNotification: NSNotification.Name { fatalError() }
    open class var didEnterBackgroundNotification: NSNotification.Name { fatalError() }
    open class var willEnterForegroundNotification: NSNotification.Name { fatalError() }
}
