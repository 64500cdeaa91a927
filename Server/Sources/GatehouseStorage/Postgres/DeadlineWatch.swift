package import NIOCore
import NIOPosix
import Synchronization

/// The deadlines of the PostgreSQL waits in flight (``ConnectionWait``), watched by one
/// event-loop timer that is armed only while there are any.
///
/// A timer of its own per storage call cost a schedule and a cancel on an event loop from
/// another thread, each taking the loop's lock and, when the loop slept, writing to its wake-up
/// descriptor: 7 % of the server's CPU in a PostgreSQL refresh (issue 35). Here adding and
/// removing a deadline is a lock and a dictionary update. The timer is armed for a deadline
/// when there is none armed or the new one is earlier; when it fires it calls what has come
/// due and arms itself for the earliest deadline left, if any.
package final class DeadlineWatch: Sendable {
    /// The watch of the process, on one loop of NIO's shared group.
    package static let shared = DeadlineWatch(loop: MultiThreadedEventLoopGroup.singleton.next())

    /// A deadline added, for ``remove(_:)``.
    package struct Token: Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: NIODeadline
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var lastID: UInt64 = 0
        /// When the armed timer fires, if one is armed.
        var armed: NIODeadline?
    }

    private let loop: any EventLoop
    private let state = Mutex(State())

    package init(loop: any EventLoop) {
        self.loop = loop
    }

    /// The number of deadlines waiting (tests).
    package var count: Int { state.withLock { $0.entries.count } }

    /// Calls `action` on the watch's event loop at `deadline`, unless it is removed first.
    package func add(at deadline: NIODeadline, _ action: @escaping @Sendable () -> Void) -> Token {
        let (token, arm) = state.withLock { state -> (Token, Bool) in
            state.lastID &+= 1
            state.entries[state.lastID] = Entry(deadline: deadline, action: action)
            let arm = state.armed.map { deadline < $0 } ?? true
            if arm { state.armed = deadline }
            return (Token(id: state.lastID), arm)
        }
        if arm { schedule(at: deadline) }
        return token
    }

    /// Forgets a deadline (whether or not it has come).
    package func remove(_ token: Token) {
        // The action comes out of the lock and is released after it.
        _ = state.withLock { $0.entries.removeValue(forKey: token.id) }
    }

    private func schedule(at deadline: NIODeadline) {
        loop.scheduleTask(deadline: deadline) { self.fire() }
    }

    /// Calls the actions that have come due, earliest deadline first (a timer that fires late,
    /// on a busy loop, finds several), and arms the timer for the next deadline, unless a timer
    /// is armed for it already.
    private func fire() {
        let now = NIODeadline.now()
        let (found, next) = state.withLock { state -> ([Entry], NIODeadline?) in
            var due: [Entry] = []
            var earliest: NIODeadline?
            for (id, entry) in state.entries {
                if entry.deadline <= now {
                    due.append(entry)
                    state.entries[id] = nil
                } else if earliest.map({ entry.deadline < $0 }) ?? true {
                    earliest = entry.deadline
                }
            }
            if let armed = state.armed, armed > now, earliest.map({ $0 >= armed }) ?? true {
                // A later timer is armed already and comes no later than what is left.
                return (due, nil)
            }
            state.armed = earliest
            return (due, earliest)
        }
        let due = found.count > 1 ? found.sorted { $0.deadline < $1.deadline } : found
        for entry in due { entry.action() }
        if let next { schedule(at: next) }
    }
}
