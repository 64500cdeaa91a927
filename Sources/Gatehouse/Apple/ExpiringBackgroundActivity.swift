// Apple-only (iOS 8.2, Mac Catalyst 13.1, tvOS 9, visionOS 1, watchOS 2; not macOS):
// ProcessInfo.performExpiringActivity(withReason:using:), whose block is @Sendable (Bool) -> Void.
// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
// What an activity is for, and what happens when it expires, is RefreshLockHold, tested on Linux.
#if canImport(Darwin) && !os(macOS)
import Dispatch
import Foundation

/// Background time from `ProcessInfo.performExpiringActivity(withReason:using:)`: for app
/// extensions (which have no `UIApplication.shared`) and watchOS.
///
/// The system calls the block once with `expired == false` and keeps the process running until
/// the block returns; if it is about to suspend the process first, it calls the block again,
/// concurrently, with `expired == true`. The first call therefore waits (on the system's queue,
/// never on ours) until ``BackgroundActivityGrant/end`` or the expiry.
public struct ExpiringBackgroundActivity: BackgroundActivity {
    /// Creates the activity source.
    public init() {}

    public func begin(_ name: String, onExpiry: @escaping @Sendable () -> Void) async -> BackgroundActivityGrant? {
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<Bool?>(nil)  // true: began; false: refused (expired at once)
        let end: @Sendable () -> Void = { finished.signal() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<BackgroundActivityGrant?, Never>) in
            ProcessInfo.processInfo.performExpiringActivity(withReason: name) { expired in
                let first = outcome.withLock { value -> Bool in
                    defer { if value == nil { value = !expired } }
                    return value == nil
                }
                if first {
                    if expired {
                        continuation.resume(returning: nil)
                        return
                    }
                    continuation.resume(returning: BackgroundActivityGrant(beganInBackground: false, end: end))
                    finished.wait()
                } else if expired {
                    onExpiry()
                    finished.signal()
                }
            }
        }
    }
}
#endif
