// The Objective-C root class and protocol, which Foundation re-exports from the ObjectiveC module
// (usr/include/objc/NSObject.h; https://developer.apple.com/documentation/objectivec/nsobject).
// Objective-C interop is off in this check: NSObject is a plain Swift open class here (README,
// "what this check does not prove"). Not Sendable: NSObject.h marks nothing.

// objc/NSObject.h: @protocol NSObject, imported as NSObjectProtocol (class-bound, as every
// Objective-C protocol is).
public protocol NSObjectProtocol: AnyObject {
    func isEqual(_ object: Any?) -> Bool
    var hash: Int { get }
    var description: String { get }
}

// objc/NSObject.h: @interface NSObject <NSObject>; the Swift overlay adds Equatable, Hashable and
// CustomStringConvertible (ObjectiveC.swiftinterface).
open class NSObject: NSObjectProtocol, Hashable, CustomStringConvertible {
    public init() {}
    open func isEqual(_ object: Any?) -> Bool { fatalError() }
    open var hash: Int { fatalError() }
    open var description: String { fatalError() }
    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
}

// ObjectiveC.swiftinterface: ObjCBool (on arm64 a wrapper of Bool).
@frozen
public struct ObjCBool: ExpressibleByBooleanLiteral {
    public init(_ value: Bool) { fatalError() }
    public init(booleanLiteral value: Bool) { fatalError() }
    public var boolValue: Bool { fatalError() }
}
