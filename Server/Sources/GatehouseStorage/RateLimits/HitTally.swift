import Synchronization

/// This process's view of shared rate-limit windows whose hits are written in batches
/// (``BatchedRateLimiter``): for each window, the count the database last returned, the hits
/// being written now, and the hits not yet written.
///
/// A hit is decided here, at once: the window is full when those three add up to its limit.
/// One process alone is therefore exact; several processes each see the others' hits as of
/// their own last write, at most one batch interval old.
///
/// A window can close while its hits are being written. The database stamps a window it opens
/// with the time of the latest hit written (``Addition/at``), so those hits land in a window
/// that ends at most one window's length after that hit: a new window here counts them only
/// until then, and an answer about a window that had ended before the new one opened leaves
/// the new one as it is.
package final class HitTally: Sendable {
    /// The most windows held; a new key beyond it is counted by the database directly.
    package let capacity: Int

    private struct Window {
        var start: Double
        var end: Double
        /// The count in the database as of the last write's answer.
        var shared = 0
        /// Hits in the write under way.
        var writing = 0
        /// Hits not yet written.
        var pending = 0
        /// Hits of an earlier window of the key, still being written, that cannot fall in this
        /// one: not counted against it, kept until their write ends.
        var earlierWriting = 0
        /// When the latest pending hit came (the time the write stamps a new window with).
        var lastHit: Double
    }

    /// Hits to add to one window in the database.
    package struct Addition: Sendable, Equatable {
        package let id: String
        package let at: Double
        package let window: Double
        package let count: Int

        /// The value of its parts.
        package init(id: String, at: Double, window: Double, count: Int) {
            self.id = id
            self.at = at
            self.window = window
            self.count = count
        }
    }

    private struct State {
        var windows: [String: Window] = [:]
        /// The windows with pending hits: what a write takes, without a scan of every window.
        var pendingIDs: Set<String> = []
        var scheduled = false
        /// The latest time a hit came with (windows closed by then are forgotten once written).
        var latest = -Double.infinity
        /// When, in hit time, closed windows are next looked for (a scan of every window, so at
        /// most once per ``sweepInterval``, not on every write).
        var nextSweep = -Double.infinity
    }

    /// Seconds of hit time between two scans for closed windows.
    package static let sweepInterval: Double = 10

    private let state = Mutex(State())

    package init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// What ``hit(_:limit:window:now:)`` decided.
    package enum Decision: Equatable {
        /// Counted; `schedule` when no write is yet planned for it.
        case counted(schedule: Bool)
        /// The window is full: seconds until it reopens.
        case full(retryAfter: Int)
        /// Not held here (the tally is at ``capacity``): count it in the database.
        case untracked
    }

    /// Counts a hit on window `id` unless it is full.
    package func hit(_ id: String, limit: Int, window: Double, now: Double) -> Decision {
        state.withLock { state in
            state.latest = max(state.latest, now)
            var current: Window
            if let open = state.windows[id], now < open.end {
                current = open
            } else if state.windows[id] == nil, state.windows.count >= capacity {
                return .untracked
            } else {
                // A new window here; the database may know an older start, and its answer wins.
                // The closed window's hits being written count only while the database's window
                // they land in may still be open (it ends within `window` of their latest hit).
                let closed = state.windows[id]
                let writing = closed.map { now < $0.lastHit + window ? $0.writing : 0 } ?? 0
                current = Window(
                    start: now,
                    end: now + window,
                    writing: writing,
                    earlierWriting: (closed?.writing ?? 0) - writing + (closed?.earlierWriting ?? 0),
                    lastHit: now
                )
            }
            if current.shared + current.writing + current.pending >= limit {
                state.windows[id] = current
                return .full(retryAfter: Self.seconds(until: current.end, from: now))
            }
            current.pending += 1
            current.lastHit = max(current.lastHit, now)
            state.windows[id] = current
            state.pendingIDs.insert(id)
            let schedule = !state.scheduled
            state.scheduled = true
            return .counted(schedule: schedule)
        }
    }

    /// Whether every hit counted here has been written (none pending, none being written).
    package var isSettled: Bool {
        state.withLock { state in
            state.windows.values.allSatisfy { $0.pending == 0 && $0.writing == 0 && $0.earlierWriting == 0 }
        }
    }

    /// Seconds until window `id` reopens when it is full by this process's view, else `nil`.
    package func wait(_ id: String, limit: Int, now: Double) -> Int? {
        state.withLock { state in
            guard let open = state.windows[id], now < open.end,
                open.shared + open.writing + open.pending >= limit
            else { return nil }
            return Self.seconds(until: open.end, from: now)
        }
    }

    /// Takes the pending hits for a write (they count as being written until
    /// ``written(_:answers:)`` or ``failed(_:)``), and, at most every ``sweepInterval``,
    /// forgets windows that had closed by the latest hit with nothing left to write.
    package func take() -> [Addition] {
        state.withLock { state in
            state.scheduled = false
            var additions: [Addition] = []
            additions.reserveCapacity(state.pendingIDs.count)
            for id in state.pendingIDs {
                guard var window = state.windows[id], window.pending > 0 else { continue }
                additions.append(
                    Addition(id: id, at: window.lastHit, window: window.end - window.start, count: window.pending)
                )
                window.writing += window.pending
                window.pending = 0
                state.windows[id] = window
            }
            state.pendingIDs.removeAll(keepingCapacity: true)
            if state.latest >= state.nextSweep {
                state.nextSweep = state.latest + Self.sweepInterval
                let latest = state.latest
                state.windows = state.windows.filter { _, window in
                    window.pending > 0 || window.writing > 0 || window.earlierWriting > 0 || latest < window.end
                }
            }
            return additions
        }
    }

    /// The database's answer to a write: each window's start and count after it. An answer
    /// about a window that had ended when this process opened its current one changes nothing
    /// but the count of hits being written.
    package func written(_ additions: [Addition], answers: [String: (start: Double, count: Int)]) {
        state.withLock { state in
            for addition in additions {
                guard var window = state.windows[addition.id] else { continue }
                if let answer = answers[addition.id], answer.start + addition.window <= window.start {
                    Self.remove(addition.count, earlierFirst: true, from: &window)
                } else {
                    Self.remove(addition.count, earlierFirst: false, from: &window)
                    if let answer = answers[addition.id] {
                        window.start = answer.start
                        window.end = answer.start + addition.window
                        window.shared = answer.count
                    }
                }
                state.windows[addition.id] = window
            }
        }
    }

    /// A write that failed: its hits are pending again (`true` when a write should be planned),
    /// unless the window they fell in has ended since: those are dropped with it.
    package func failed(_ additions: [Addition]) -> Bool {
        state.withLock { state in
            for addition in additions {
                guard var window = state.windows[addition.id] else { continue }
                if addition.at + addition.window <= window.start {
                    Self.remove(addition.count, earlierFirst: true, from: &window)
                } else {
                    let returned = min(window.writing, addition.count)
                    window.writing -= returned
                    window.pending += returned
                    Self.remove(addition.count - returned, earlierFirst: true, from: &window)
                }
                state.windows[addition.id] = window
                if window.pending > 0 { state.pendingIDs.insert(addition.id) }
            }
            let schedule = !state.scheduled && !additions.isEmpty
            if schedule { state.scheduled = true }
            return schedule
        }
    }

    /// Takes `count` hits whose write ended off the window's counts of hits being written: its
    /// earlier windows' first when `earlierFirst`, else its own first.
    private static func remove(_ count: Int, earlierFirst: Bool, from window: inout Window) {
        var left = count
        func take(_ part: inout Int) {
            let taken = min(part, left)
            part -= taken
            left -= taken
        }
        if earlierFirst {
            take(&window.earlierWriting)
            take(&window.writing)
        } else {
            take(&window.writing)
            take(&window.earlierWriting)
        }
    }

    private static func seconds(until end: Double, from now: Double) -> Int {
        max(1, Int((end - now).rounded(.up)))
    }
}
