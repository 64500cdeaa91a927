// Apple-only (UIKit apps: iOS, iPadOS, Mac Catalyst, tvOS, visionOS; not watchOS, not app
// extensions): UIApplication.shared, applicationState, beginBackgroundTask(withName:expirationHandler:)
// and endBackgroundTask(_:), all on the main actor (UIApplication is NS_SWIFT_UI_ACTOR).
// https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)
// What an activity is for, and what happens when it expires, is RefreshLockHold, tested on Linux.
#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Background time from `UIApplication.beginBackgroundTask(withName:expirationHandler:)`.
///
/// Used by default in apps; app extensions, which have no `UIApplication.shared`, get
/// ``ExpiringBackgroundActivity`` (``ProcessEnvironment/backgroundActivity``).
public struct ApplicationBackgroundActivity: BackgroundActivity {
    /// Creates the activity source.
    public init() {}

    public func begin(_ name: String, onExpiry: @escaping @Sendable () -> Void) async -> BackgroundActivityGrant? {
        await Self.begin(name, onExpiry: onExpiry)
    }

    @MainActor
    private static func begin(_ name: String, onExpiry: @escaping @Sendable () -> Void) -> BackgroundActivityGrant? {
        let application = UIApplication.shared
        let beganInBackground = application.applicationState == .background
        // The task's identifier, kept as its raw value (a plain Int) so that the end function
        // can be Sendable; set right after beginBackgroundTask returns, on the main actor,
        // before the expiration handler (also main actor) can run.
        let identifier = Locked<Int?>(nil)
        let end: @Sendable () -> Void = {
            guard let raw = identifier.withLock({ value -> Int? in
                defer { value = nil }
                return value
            }) else { return }
            Task { @MainActor in
                UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: raw))
            }
        }
        let task = application.beginBackgroundTask(withName: name) {
            onExpiry()
            end()
        }
        guard task != .invalid else { return nil }
        identifier.withLock { $0 = task.rawValue }
        return BackgroundActivityGrant(beganInBackground: beganInBackground, end: end)
    }
}
#endif
