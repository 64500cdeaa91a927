// ProcessInfo: Foundation/NSProcessInfo.h; https://developer.apple.com/documentation/foundation/processinfo.
// Sendable: NSProcessInfo is NS_SWIFT_SENDABLE in the iOS 17+ SDKs — recalled, not re-read from
// the header here.

// Foundation/NSProcessInfo.h
open class ProcessInfo: NSObject, @unchecked Sendable {
    open class var processInfo: ProcessInfo { fatalError() }
    open var environment: [String: String] { fatalError() }

    // https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:):
    // "func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void)",
    // iOS 8.2, Mac Catalyst 13.1, tvOS 9, visionOS 1, watchOS 2 — not macOS (NSProcessInfo.h:
    // API_UNAVAILABLE(macos)). Introductions below the deployment targets are left out.
    @available(macOS, unavailable)
    open func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        fatalError()
    }
}
