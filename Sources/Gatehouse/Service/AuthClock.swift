public import Foundation

/// Time as the SDK sees it: the current date and a way to wait. Inject a test clock to drive
/// expiry and backoff without sleeping.
public struct AuthClock: Sendable {
    /// The current date.
    public var now: @Sendable () -> Date
    /// Waits for `duration`; throws `CancellationError` when the task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a clock from its two operations.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system clock.
    public static let system = AuthClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
