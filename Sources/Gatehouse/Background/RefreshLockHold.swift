/// The cross-process refresh lock as one refresh holds it (issue 30).
///
/// - It is taken only inside a ``BackgroundActivity``; when the system grants no time, the
///   refresh goes ahead without it (the server's reuse interval answers a concurrent refresh).
/// - When the activity expires (the system is about to suspend the process), the lock is
///   released at once, even while the refresh's request is in flight: iOS terminates a
///   suspended app that holds a lock on a file in a shared container (`0xdead10cc`).
/// - It is not waited for while the app is in the background (it began there, or went there
///   while waiting): one attempt, then the refresh goes ahead without it.
///
/// Every transition happens once, whatever the order of release, expiry and acquisition.
final class RefreshLockHold: Sendable {
    private struct State {
        var release: (@Sendable () -> Void)?
        var endActivity: (@Sendable () -> Void)?
        var expired = false
        var finished = false
    }

    private let state = Locked(State())

    private init() {}

    /// Takes `lock` for one refresh, or returns `nil` when the refresh goes without it (no
    /// lock, no background time, the app in the background and the lock busy, a holder that
    /// hung past the lock's timeout, or the activity expired while waiting).
    ///
    /// - Parameter isInBackground: Whether the app is in the background now (the service's
    ///   lifecycle observers keep it).
    static func take(
        _ lock: RefreshLock?,
        activity: any BackgroundActivity,
        isInBackground: @escaping @Sendable () -> Bool,
        log: LogSink
    ) async -> RefreshLockHold? {
        guard let lock else { return nil }
        let hold = RefreshLockHold()
        guard let grant = await activity.begin("Gatehouse token refresh", onExpiry: { hold.expire(log: log) }) else {
            log(.info, "No background time for the refresh lock; refreshing without it")
            return nil
        }
        guard hold.attach(endActivity: grant.end) else { return nil }
        let inBackground: @Sendable () -> Bool = { grant.beganInBackground || isInBackground() }
        do {
            let release = try await lock.acquire(while: { !inBackground() && !hold.hasExpired })
            guard hold.attach(release: release) else { return nil }
            return hold
        } catch {
            log(
                .info,
                inBackground() ? "Refresh lock busy in the background; refreshing without it" : "Refresh lock not taken",
                ["code": AuthError.wrapping(error).code.rawValue]
            )
            hold.release()
            return nil
        }
    }

    /// Whether the activity expired.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Releases the lock and ends the activity (once).
    func release() {
        let (release, end) = state.withLock { state -> ((@Sendable () -> Void)?, (@Sendable () -> Void)?) in
            defer {
                state.release = nil
                state.endActivity = nil
                state.finished = true
            }
            return (state.release, state.endActivity)
        }
        release?()
        end?()
    }

    /// The system is about to suspend the process: let go of the lock now.
    private func expire(log: LogSink) {
        let held = state.withLock { state -> Bool in
            state.expired = true
            return state.release != nil
        }
        if held { log(.info, "Background time ran out during a refresh; refresh lock released") }
        release()
    }

    /// Keeps the function that ends the activity; `false` (and ends it) when the hold is over.
    private func attach(endActivity: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.finished, !state.expired else { return false }
            state.endActivity = endActivity
            return true
        }
        if !accepted { endActivity() }
        return accepted
    }

    /// Keeps the lock's release; `false` (and releases it) when the activity expired meanwhile.
    private func attach(release: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.finished, !state.expired else { return false }
            state.release = release
            return true
        }
        if !accepted { release() }
        return accepted
    }
}
