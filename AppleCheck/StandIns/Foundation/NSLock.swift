// NSLock: Foundation/NSLock.h; https://developer.apple.com/documentation/foundation/nslock.
// Sendable: NSLock is NS_SWIFT_SENDABLE in the iOS 16+ SDKs — recalled, not re-read from the
// header here. NSLocking.withLock is in the Swift overlay (iOS 16+; below the deployment targets).

// Foundation/NSLock.h
public protocol NSLocking {
    func lock()
    func unlock()
}

// Foundation.swiftinterface
extension NSLocking {
    public func withLock<R>(_ body: () throws -> R) rethrows -> R { fatalError() }
}

// Foundation/NSLock.h
open class NSLock: NSObject, NSLocking, @unchecked Sendable {
    public override init() { fatalError() }
    open func lock() { fatalError() }
    open func unlock() { fatalError() }
    open func `try`() -> Bool { fatalError() }
}
