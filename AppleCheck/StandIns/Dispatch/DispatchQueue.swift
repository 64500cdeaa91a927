// DispatchQueue and DispatchQoS as Apple's Dispatch overlay declares them (Dispatch.swiftinterface
// of the iOS 18 SDK; the same declarations are in swiftlang/swift-corelibs-libdispatch
// src/swift/Queue.swift and Dispatch.swift); https://developer.apple.com/documentation/dispatch/dispatchqueue.
// The work closures are `@convention(block)` on Apple platforms; with Objective-C interop off they
// are plain Swift closures here (README, compromises). Their `@Sendable` is kept.
@_exported import Darwin

// Dispatch.swiftinterface: DispatchObject (OS_dispatch_object on Apple platforms)
open class DispatchObject {}

// Dispatch.swiftinterface
public struct DispatchQoS: Equatable, Sendable {
    public enum QoSClass: Sendable {
        case background, utility, `default`, userInitiated, userInteractive, unspecified
    }
    public let qosClass: QoSClass
    public let relativePriority: Int
    public init(qosClass: QoSClass, relativePriority: Int) { fatalError() }
    public static let background = DispatchQoS(qosClass: .background, relativePriority: 0)
    public static let utility = DispatchQoS(qosClass: .utility, relativePriority: 0)
    public static let `default` = DispatchQoS(qosClass: .default, relativePriority: 0)
    public static let userInitiated = DispatchQoS(qosClass: .userInitiated, relativePriority: 0)
    public static let userInteractive = DispatchQoS(qosClass: .userInteractive, relativePriority: 0)
    public static let unspecified = DispatchQoS(qosClass: .unspecified, relativePriority: 0)
}

// Dispatch.swiftinterface
public struct DispatchWorkItemFlags: OptionSet, RawRepresentable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let barrier = DispatchWorkItemFlags(rawValue: 0x1)
}

// Dispatch.swiftinterface
final public class DispatchGroup: DispatchObject, @unchecked Sendable {}

// Dispatch.swiftinterface
final public class DispatchQueue: DispatchObject, @unchecked Sendable {
    public struct Attributes: OptionSet, Sendable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        public static let concurrent = Attributes(rawValue: 1 << 1)
        public static let initiallyInactive = Attributes(rawValue: 1 << 2)
    }
    public enum AutoreleaseFrequency: Sendable {
        case inherit, workItem, never
    }
    public class var main: DispatchQueue { fatalError() }
    public convenience init(
        label: String,
        qos: DispatchQoS = .unspecified,
        attributes: Attributes = [],
        autoreleaseFrequency: AutoreleaseFrequency = .inherit,
        target: DispatchQueue? = nil
    ) { fatalError() }
    public func async(
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable () -> Void
    ) { fatalError() }
}

// Dispatch.swiftinterface / swift-corelibs-libdispatch src/swift/Queue.swift:
// `public final class DispatchSpecificKey<T> { public init() }` (not Sendable).
final public class DispatchSpecificKey<T> {
    public init() { fatalError() }
}

// Dispatch.swiftinterface / Queue.swift: `extension DispatchQueue { public class func
// getSpecific<T>(key: DispatchSpecificKey<T>) -> T?; public func setSpecific<T>(key:
// DispatchSpecificKey<T>, value: T?) }`.
extension DispatchQueue {
    public class func getSpecific<T>(key: DispatchSpecificKey<T>) -> T? { fatalError() }
    public func setSpecific<T>(key: DispatchSpecificKey<T>, value: T?) { fatalError() }
}

// Dispatch.swiftinterface / swift-corelibs-libdispatch src/swift/Wrapper.swift and Dispatch.swift:
// DispatchSemaphore (OS_dispatch_semaphore on Apple platforms); the 2026 documentation lists
// Sendable among its conformances (https://developer.apple.com/documentation/dispatch/dispatchsemaphore),
// `init(value: Int)`, `@discardableResult func signal() -> Int`
// (https://developer.apple.com/documentation/dispatch/dispatchsemaphore/signal()) and `func wait()`;
// `public class` as in swift-corelibs-libdispatch (an imported Objective-C class on Apple platforms).
public class DispatchSemaphore: DispatchObject, @unchecked Sendable {
    public init(value: Int) { fatalError() }
}
extension DispatchSemaphore {
    @discardableResult
    public func signal() -> Int { fatalError() }
    public func wait() { fatalError() }
}
