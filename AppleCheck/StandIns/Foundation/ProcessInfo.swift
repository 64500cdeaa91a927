// ProcessInfo: Foundation/NSProcessInfo.h; https://developer.apple.com/documentation/foundation/processinfo.
// Sendable: NSProcessInfo is NS_SWIFT_SENDABLE in the iOS 17+ SDKs — recalled, not re-read from
// the header here.

// Foundation/NSProcessInfo.h
open class ProcessInfo: NSObject, @unchecked Sendable {
    open class var processInfo: ProcessInfo { fatalError() }
    open var environment: [String: String] { fatalError() }
}
