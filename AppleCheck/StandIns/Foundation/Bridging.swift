// NSString, NSDictionary and the CoreFoundation types the SDK passes to Security.
//
// COMPROMISE (README, "what this check does not prove"): with Objective-C interop off there is no
// toll-free bridging. Here NSString and NSDictionary are Swift classes, String and Dictionary
// conform to `_ObjectiveCBridgeable` (the protocol through which the compiler bridges them on
// Apple platforms too, Foundation.swiftinterface: `extension String : _ObjectiveCBridgeable`), so
// `path as NSString`, `kSecClass as String` and `[String: Any] as CFDictionary` type-check as they
// do on Apple platforms. The CoreFoundation types are typealiases of the Foundation classes they
// are toll-free bridged to (CFString = NSString, CFDictionary = NSDictionary): on Apple platforms
// they are distinct classes of the CoreFoundation module that the compiler bridges.

// MacTypes.h (which CoreFoundation/CFBase.h includes): `typedef SInt32 OSStatus`.
public typealias OSStatus = Int32

// CoreFoundation/CFBase.h: `typedef const void * CFTypeRef`, imported as AnyObject.
public typealias CFTypeRef = AnyObject
// CoreFoundation/CFBase.h (CFStringRef, CF_BRIDGED_TYPE(NSString)) — see COMPROMISE above.
public typealias CFString = NSString
// CoreFoundation/CFDictionary.h (CFDictionaryRef, CF_BRIDGED_TYPE(NSDictionary)) — see COMPROMISE above.
public typealias CFDictionary = NSDictionary

// Foundation/NSString.h (NSString is not Sendable: the header marks nothing) and
// Foundation/NSPathUtilities.h (the path methods, on NSString only since Swift 3).
open class NSString: NSObject {
    public override init() { fatalError() }
    open var lastPathComponent: String { fatalError() }
    open var deletingLastPathComponent: String { fatalError() }
}

// Foundation/NSDictionary.h
open class NSDictionary: NSObject {
    public override init() { fatalError() }
}

// Foundation.swiftinterface: String bridges to NSString.
extension String: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { fatalError() }
    public static func _forceBridgeFromObjectiveC(_ x: NSString, result: inout String?) { fatalError() }
    public static func _conditionallyBridgeFromObjectiveC(_ x: NSString, result: inout String?) -> Bool { fatalError() }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String { fatalError() }
}

// Foundation.swiftinterface: Dictionary bridges to NSDictionary.
extension Dictionary: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSDictionary { fatalError() }
    public static func _forceBridgeFromObjectiveC(_ x: NSDictionary, result: inout Dictionary?) { fatalError() }
    public static func _conditionallyBridgeFromObjectiveC(_ x: NSDictionary, result: inout Dictionary?) -> Bool {
        fatalError()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSDictionary?) -> Dictionary { fatalError() }
}

// CoreFoundation's Swift overlay: `@frozen public struct CGFloat` (a Double on 64-bit platforms),
// https://developer.apple.com/documentation/corefoundation/cgfloat. COMPROMISE: a typealias of
// Double here. Swift converts between CGFloat and Double implicitly since SE-0307, so code
// type-checks alike, except code that overloads on the two types.
public typealias CGFloat = Double
