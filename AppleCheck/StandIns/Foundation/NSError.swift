// NSError, Error's localizedDescription and the two bridging entry points the compiler calls for
// `error as NSError`: Foundation/NSError.h and the Swift overlay (Foundation.swiftinterface;
// swift-corelibs-foundation Sources/Foundation/NSError.swift mirrors them);
// https://developer.apple.com/documentation/foundation/nserror.

// Foundation/NSError.h: @interface NSError : NSObject <NSCopying, NSSecureCoding>. The overlay
// makes it an Error (so Sendable): the 2026 documentation lists Error and Sendable among its
// conformances (https://developer.apple.com/documentation/foundation/nserror).
open class NSError: NSObject, Error, @unchecked Sendable {
    public init(domain: String, code: Int, userInfo dict: [String: Any]? = nil) { fatalError() }
    open var domain: String { fatalError() }
    open var code: Int { fatalError() }
    open var userInfo: [String: Any] { fatalError() }
    open var localizedDescription: String { fatalError() }
}

// Foundation.swiftinterface: `extension Error { public var localizedDescription: String { get } }`
// (https://developer.apple.com/documentation/swift/error/localizeddescription).
extension Error {
    public var localizedDescription: String { fatalError() }
}

// Foundation.swiftinterface: the COMPILER_INTRINSIC functions the compiler calls for `error as
// NSError` and for an Objective-C error entering Swift (the same names in swift-corelibs-foundation
// Sources/Foundation/NSError.swift, where Objective-C interop is off as it is here).
public func _convertErrorToNSError(_ error: any Error) -> NSError { fatalError() }
public func _convertNSErrorToError(_ error: NSError?) -> any Error { fatalError() }
