// Bundle and NSLocalizedString: Foundation/NSBundle.h and the Swift overlay
// (Foundation.swiftinterface: `public func NSLocalizedString(_ key: String, tableName: String? = nil,
// bundle: Bundle = Bundle.main, value: String = "", comment: String) -> String`);
// https://developer.apple.com/documentation/foundation/bundle.
// Sendable: NSBundle is NS_SWIFT_SENDABLE in the iOS 17+ SDKs — recalled, not re-read from the
// header here.

// Foundation/NSBundle.h
open class Bundle: NSObject, @unchecked Sendable {
    open class var main: Bundle { fatalError() }
    open var bundleIdentifier: String? { fatalError() }
    // NSBundle.h: @property (readonly, copy) NSString *bundlePath;
    // https://developer.apple.com/documentation/foundation/bundle/bundlepath ("var bundlePath: String { get }")
    open var bundlePath: String { fatalError() }
    open func object(forInfoDictionaryKey key: String) -> Any? { fatalError() }
}

// Foundation.swiftinterface (NSStringAPI)
public func NSLocalizedString(
    _ key: String,
    tableName: String? = nil,
    bundle: Bundle = Bundle.main,
    value: String = "",
    comment: String
) -> String { fatalError() }
