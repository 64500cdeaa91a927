import GatehouseStorage
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer
@testable import GatehouseStorage

/// The bound on the wait for a pooled PostgreSQL connection (issue 32): the caller is answered
/// at the deadline even when the lease ignores its cancellation, as PostgresNIO's pool did while
/// it reconnected to a restarted database.
@Suite("Connection wait")
struct ConnectionWaitTests {
    /// A lease that never comes and does not listen to cancellation: the caller still gets
    /// `DatabaseUnavailable` at the deadline, and the lease let go later is refused.
    @Test func theCallerIsAnsweredAtTheDeadlineWhenTheLeaseIgnoresCancellation() async throws {
        let release = Gate()
        let refused = Atomic<Bool>(false)
        // The lease ends ten seconds on, by itself: an implementation that waits for it
        // answers then, too late.
        let opener = Task {
            try? await Task.sleep(for: .seconds(10))
            release.open()
        }
        let start = ContinuousClock.now
        await #expect(throws: DatabaseUnavailable.self) {
            try await ConnectionWait.run(for: .milliseconds(200)) { wait in
                // Deaf to cancellation: ends only when the test lets it.
                await release.wait()
                do { try wait.leased() } catch { refused.store(true, ordering: .relaxed) }
                return 1
            }
        }
        let waited = ContinuousClock.now - start
        #expect(waited < .seconds(5), "answered at the deadline, not when the lease ended: \(waited)")
        await opener.value
        let deadline = ContinuousClock.now + .seconds(30)
        while !refused.load(ordering: .relaxed), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let wasRefused = refused.load(ordering: .relaxed)
        #expect(wasRefused, "a connection that comes after the deadline is refused")
    }

    /// A transaction that has its connection and never ends (a statement written as
    /// PostgreSQL closed the connection): the caller is answered at the total's end and the
    /// connection is closed.
    @Test func aTransactionThatNeverEndsIsGivenUpAndItsConnectionClosed() async throws {
        let never = Gate()
        let closed = Atomic<Bool>(false)
        let refused = Atomic<Bool>(false)
        let start = ContinuousClock.now
        await #expect(throws: DatabaseUnavailable.self) {
            try await ConnectionWait.run(for: .seconds(600), total: .milliseconds(500)) { wait in
                do {
                    try wait.leased { closed.store(true, ordering: .relaxed) }
                } catch {
                    // The work started after the total had passed (a busy machine): refused.
                    refused.store(true, ordering: .relaxed)
                    throw error
                }
                await never.wait()
                return 1
            }
        }
        let waited = ContinuousClock.now - start
        #expect(waited < .seconds(120), "answered at the total's end, long before the wait's: \(waited)")
        // On a busy machine the work may not have started when the caller is answered: it is
        // then refused when it asks for its connection. Either way within a bounded wait.
        var settled = false
        for _ in 0..<500 where !settled {
            settled = closed.load(ordering: .relaxed) || refused.load(ordering: .relaxed)
            if !settled { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(settled, "the connection was closed, or never taken, within 10 s")
        never.open()
    }

    /// A connection in time: the work's answer, and its error as it is.
    @Test func aLeaseInTimeGivesTheWorksAnswer() async throws {
        let value = try await ConnectionWait.run(for: .seconds(30)) { wait in
            try wait.leased()
            return 42
        }
        #expect(value == 42)
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await ConnectionWait.run(for: .seconds(30)) { wait -> Int in
                try wait.leased()
                throw Broken()
            }
        }
    }
}

/// The one timer that watches every wait's deadlines (issue 35: a timer per statement cost 7 %
/// of a PostgreSQL refresh).
@Suite("Deadline watch")
struct DeadlineWatchTests {
    /// Deadlines fire once each, at or after their time and in their order, whatever order they
    /// were added in (an earlier one added after a later one re-arms the timer); a removed one
    /// never fires; the watch keeps nothing afterwards. The late deadline is 3 s away, so that a
    /// loop slowed by a busy machine (the suites keep two cores busy) still fires the early one
    /// well before it; deadlines a late timer finds due together still fire in their order (one
    /// CI run found the middle and late ones due at once, fired in the dictionary's order).
    @Test func eachDeadlineFiresOnceAtItsTimeAndARemovedOneNever() async throws {
        let watch = DeadlineWatch(loop: MultiThreadedEventLoopGroup.singleton.next())
        let fired = Mutex<[(String, NIODeadline)]>([])
        let start = NIODeadline.now()
        func add(_ name: String, after milliseconds: Int64) -> (DeadlineWatch.Token, NIODeadline) {
            let deadline = start + .milliseconds(milliseconds)
            let token = watch.add(at: deadline) { fired.withLock { $0.append((name, NIODeadline.now())) } }
            return (token, deadline)
        }
        let (_, late) = add("late", after: 3_000)
        let (_, early) = add("early", after: 150)
        let (removed, _) = add("removed", after: 300)
        let (_, middle) = add("middle", after: 450)
        watch.remove(removed)
        let deadline = ContinuousClock.now + .seconds(30)
        while fired.withLock({ $0.count }) < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))
        let calls = fired.withLock { $0 }
        #expect(calls.map(\.0) == ["early", "middle", "late"])
        // Added after the late one, the early deadline still fires long before the late one is due.
        #expect(calls.first.map { $0.1 < late } == true, "the early deadline waited for the late one")
        for (name, at) in calls {
            let due = ["early": early, "middle": middle, "late": late][name]!
            #expect(at >= due, "\(name) fired before its deadline")
        }
        #expect(watch.count == 0)
    }

    /// A timer that fires late, its loop held past every deadline, finds them all due at once
    /// and fires them in their order, not in the order they were added or kept in.
    @Test func deadlinesFoundDueTogetherFireInTheirOrder() async throws {
        // A loop of its own: the test holds it, and no other test's deadlines are on it.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let watch = DeadlineWatch(loop: loop)
        let fired = Mutex<[Int]>([])
        let start = NIODeadline.now()
        loop.execute { usleep(500_000) }
        for index in (0..<8).reversed() {
            _ = watch.add(at: start + .milliseconds(50 + Int64(index) * 10)) {
                fired.withLock { $0.append(index) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while fired.withLock({ $0.count }) < 8, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(fired.withLock { $0 } == Array(0..<8))
        #expect(watch.count == 0)
        try await group.shutdownGracefully()
    }

    /// Waits that end in time leave nothing in the watch.
    @Test func waitsThatEndInTimeLeaveNoDeadline() async throws {
        let watch = DeadlineWatch(loop: MultiThreadedEventLoopGroup.singleton.next())
        for _ in 0..<50 {
            _ = try await ConnectionWait.run(for: .seconds(30), total: .seconds(60), watch: watch) { wait in
                try wait.leased()
                return 1
            }
        }
        #expect(watch.count == 0)
    }
}

/// A wait that only ``open()`` ends (cancellation does not).
private final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
