// Apple-only call sites in this file: the platform defaults ApplicationBackgroundActivity
// (UIKit apps: UIApplication.beginBackgroundTask) and ExpiringBackgroundActivity (app
// extensions and watchOS: ProcessInfo.performExpiringActivity), defined in Apple/.
/// Asks the system to keep the process running while it holds something another process may
/// wait for: the cross-process refresh lock (`RefreshLockHold`).
///
/// iOS suspends an app shortly after it leaves the foreground, and terminates a suspended app
/// that still holds a lock on a file in a shared container (exception `0xdead10cc`). So the
/// refresh lock is taken only inside an activity, released when the activity expires, and not
/// waited for once the app is in the background.
///
/// The platform's implementation (``ProcessEnvironment/backgroundActivity``): `beginBackgroundTask` in UIKit
/// apps (iOS, iPadOS, Mac Catalyst, tvOS, visionOS), `ProcessInfo.performExpiringActivity` in
/// app extensions and on watchOS, nothing on macOS and Linux (``NoBackgroundActivity``), whose
/// processes are not suspended that way. Tests pass a fake that expires when told.
public protocol BackgroundActivity: Sendable {
    /// Begins an activity named `name`. `onExpiry` runs once, on any thread, if the system is
    /// about to suspend the process before ``BackgroundActivityGrant/end`` is called.
    ///
    /// - Returns: The activity, or `nil` when the system grants no time (the app is about to be
    ///   suspended): nothing that must not outlive the activity may start then.
    func begin(_ name: String, onExpiry: @escaping @Sendable () -> Void) async -> BackgroundActivityGrant?
}

/// An activity the system granted.
public struct BackgroundActivityGrant: Sendable {
    /// Whether the app was in the background when the activity began.
    public var beganInBackground: Bool
    /// Ends the activity; later calls do nothing.
    public var end: @Sendable () -> Void

    /// Creates a grant.
    public init(beganInBackground: Bool, end: @escaping @Sendable () -> Void) {
        self.beganInBackground = beganInBackground
        self.end = end
    }
}

/// No activity: macOS and Linux, where a process is not suspended while it holds a lock.
public struct NoBackgroundActivity: BackgroundActivity {
    /// Creates the no-op activity.
    public init() {}

    public func begin(_ name: String, onExpiry: @escaping @Sendable () -> Void) async -> BackgroundActivityGrant? {
        BackgroundActivityGrant(beganInBackground: false, end: {})
    }
}

extension BackgroundActivity where Self == NoBackgroundActivity {
    /// No activity (macOS, Linux).
    public static var none: NoBackgroundActivity { NoBackgroundActivity() }
}

extension ProcessEnvironment {
    /// The platform's background activity for this process: `beginBackgroundTask` in a UIKit
    /// app, `performExpiringActivity` in an app extension (where `UIApplication.shared` must not
    /// be used) and on watchOS, none on macOS and Linux.
    public var backgroundActivity: any BackgroundActivity {
        #if canImport(UIKit) && !os(watchOS)
        return isAppExtension ? ExpiringBackgroundActivity() : ApplicationBackgroundActivity()
        #elseif os(watchOS)
        return ExpiringBackgroundActivity()
        #else
        return NoBackgroundActivity()
        #endif
    }
}
