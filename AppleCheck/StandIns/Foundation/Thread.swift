// Thread: Foundation/NSThread.h; https://developer.apple.com/documentation/foundation/thread.
// Only the class property the SDK reads. NSThread is not marked NS_SWIFT_SENDABLE.

// Foundation/NSThread.h: `@property (class, readonly) BOOL isMainThread;` →
// `class var isMainThread: Bool { get }` (https://developer.apple.com/documentation/foundation/thread/ismainthread-swift.type.property).
open class Thread: NSObject {
    open class var isMainThread: Bool { fatalError() }
}
