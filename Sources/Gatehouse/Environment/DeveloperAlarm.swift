/// Stops a debug build at a mistake in the app's setup (a keychain access group the app is not
/// entitled to, a Sign in with Apple without its authorization code), so that the developer
/// sees it on the first run instead of in production.
///
/// ``standard`` calls `assertionFailure` in debug builds, except where stopping helps nobody:
/// test runs and Xcode Previews (``stops(in:)``). Release builds never stop. Tests pass their
/// own alarm to observe what would have stopped:
///
/// ```swift
/// let raised = Locked<[String]>([])
/// let alarm = DeveloperAlarm { message in raised.withLock { $0.append(message) } }
/// ```
public struct DeveloperAlarm: Sendable {
    /// Reports the mistake described by `message`.
    public var raise: @Sendable (_ message: String) -> Void

    /// Creates an alarm from its one operation.
    public init(raise: @escaping @Sendable (_ message: String) -> Void) {
        self.raise = raise
    }

    /// `assertionFailure` in debug builds of this process, unless ``stops(in:)`` says no.
    public static let standard = DeveloperAlarm.assertion(in: .current)

    /// An alarm that never stops anything (the mistake is still logged by its caller).
    public static let silent = DeveloperAlarm { _ in }

    /// `assertionFailure` in debug builds, unless `environment` is a test run or a Preview.
    public static func assertion(in environment: ProcessEnvironment) -> DeveloperAlarm {
        DeveloperAlarm { message in
            #if DEBUG
            if stops(in: environment) { assertionFailure("Gatehouse: \(message)") }
            #endif
        }
    }

    /// Whether a debug build of a process in `environment` should stop: not in a test run (it
    /// would end the run) and not in an Xcode Preview (it would only break the canvas).
    public static func stops(in environment: ProcessEnvironment) -> Bool {
        !environment.isTestRun && !environment.isXcodePreview
    }
}
