// The WatchKit of watchOS (https://developer.apple.com/documentation/watchkit/wkapplication:
// "@MainActor class WKApplication", watchOS 7+). The SDK does not import WatchKit yet; the module
// exists so that `canImport(WatchKit)` is true on watchOS only, as on Apple platforms, and carries
// the application object that watchOS lifecycle observers would use.
@_exported import Foundation

// WatchKit/WKApplication.h: NS_SWIFT_UI_ACTOR @interface WKApplication : NSObject
@MainActor
open class WKApplication: NSObject {
    // WKApplication.h: + (WKApplication *)sharedApplication, imported as `class func shared()`.
    open class func shared() -> WKApplication { fatalError() }
}
