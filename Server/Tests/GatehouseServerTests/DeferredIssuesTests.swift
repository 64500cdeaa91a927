import GatehouseProcessTesting
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 32: the codes a request hands off (`POST /recover` answers before its code is written)
/// are issued by a service of the application, not by detached tasks: a graceful shutdown
/// finishes the jobs handed over within the service's grace, cuts what is still running at its
/// end, and takes no job after it.
@Suite("Deferred code issues")
struct DeferredIssuesTests {
    static let logger: Logger = {
        var logger = Logger(label: "deferred-issues")
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `issues` in a service group whose graceful shutdown was asked for before it
    /// started, until it ends (at most 60 s).
    static func runUntilShutDown(_ issues: DeferredIssues) async throws {
        let group = ServiceGroup(
            configuration: .init(services: [issues], gracefulShutdownSignals: [], logger: logger)
        )
        await group.triggerGracefulShutdown()
        _ = try await Deadline.run(.seconds(60)) {
            try await group.run()
            return true
        }
    }

    @Test func aGracefulShutdownFinishesTheJobsHandedOver() async throws {
        let issues = DeferredIssues(grace: .seconds(30), logger: Self.logger)
        let done = RunCount()
        for _ in 0..<3 {
            issues.submit {
                await Task.yield()
                done.add(1)
            }
        }
        #expect(issues.pending == 3)
        try await Self.runUntilShutDown(issues)
        #expect(done.value == 3, "every job handed over ran")
        #expect(issues.pending == 0)

        // After the shutdown no job is taken (it would never run).
        issues.submit { done.add(100) }
        #expect(issues.pending == 0)
        #expect(done.value == 3)
    }

    @Test func aJobStillRunningWhenTheGraceEndsIsCancelled() async throws {
        let issues = DeferredIssues(grace: .milliseconds(200), logger: Self.logger)
        let (never, held) = AsyncStream.makeStream(of: Void.self)
        let outcome = StatusBox()
        issues.submit {
            for await _ in never {}
            outcome.set(Task.isCancelled ? 1 : 2)
        }
        let clock = ContinuousClock()
        let started = clock.now
        try await Self.runUntilShutDown(issues)
        #expect(outcome.value == 1, "cancelled at the end of the grace")
        #expect(issues.pending == 0)
        #expect(clock.now - started < .seconds(90), "the grace, not the job (which never ends), decided the end")
        held.finish()  // (kept until here: a stream whose continuation goes away ends at once)
    }
}

/// How many jobs ran, counted from the jobs' own tasks.
private final class RunCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add(_ runs: Int) { count.withLock { $0 += runs } }
}
