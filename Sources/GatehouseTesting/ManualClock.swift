public import Foundation
public import Gatehouse

/// A clock that moves only when a test says so.
///
/// ```swift
/// let clock = ManualClock()
/// let backend = InMemoryAuthBackend(configuration: .init(now: clock.now))
/// let auth = AuthService(backend: backend, store: InMemorySessionStore(),
///                        configuration: .init(clock: clock.authClock))
/// clock.advance(by: 3600)  // every access token is now expired
/// ```
public final class ManualClock: Sendable {
    private let state: Locked<(date: Date, sleeps: [Duration])>

    /// Creates a clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Locked((start, []))
    }

    /// The current date of this clock, as a closure to hand to configurations.
    public var now: @Sendable () -> Date {
        { [state] in state.withLock { $0.date } }
    }

    /// The current date.
    public var date: Date { state.withLock { $0.date } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.date.addTimeInterval(seconds) }
    }

    /// Every duration slept on ``authClock`` so far.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// An `AuthClock` reading this clock; its `sleep` advances the clock instead of waiting.
    public var authClock: AuthClock {
        AuthClock(
            now: now,
            sleep: { [state] duration in
                try Task.checkCancellation()
                let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                state.withLock {
                    $0.sleeps.append(duration)
                    $0.date.addTimeInterval(seconds)
                }
                await Task.yield()
            }
        )
    }
}
