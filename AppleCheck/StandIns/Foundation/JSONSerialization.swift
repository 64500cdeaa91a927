// JSONSerialization: Foundation/NSJSONSerialization.h;
// https://developer.apple.com/documentation/foundation/jsonserialization.

// Foundation/NSJSONSerialization.h: NSJSONReadingOptions and NSJSONWritingOptions are NS_OPTIONS.
open class JSONSerialization: NSObject {
    public struct ReadingOptions: OptionSet, @unchecked Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var mutableContainers: ReadingOptions { .init(rawValue: 1 << 0) }
        public static var mutableLeaves: ReadingOptions { .init(rawValue: 1 << 1) }
        public static var fragmentsAllowed: ReadingOptions { .init(rawValue: 1 << 2) }
    }
    public struct WritingOptions: OptionSet, @unchecked Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var prettyPrinted: WritingOptions { .init(rawValue: 1 << 0) }
        public static var sortedKeys: WritingOptions { .init(rawValue: 1 << 1) }
        public static var fragmentsAllowed: WritingOptions { .init(rawValue: 1 << 2) }
        public static var withoutEscapingSlashes: WritingOptions { .init(rawValue: 1 << 3) }
    }
    open class func isValidJSONObject(_ obj: Any) -> Bool { fatalError() }
    open class func data(withJSONObject obj: Any, options opt: WritingOptions = []) throws -> Data { fatalError() }
    open class func jsonObject(with data: Data, options opt: ReadingOptions = []) throws -> Any { fatalError() }
}
