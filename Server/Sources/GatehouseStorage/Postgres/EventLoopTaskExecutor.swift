import NIOCore
import PostgresNIO

/// A Swift `TaskExecutor` that runs jobs on one NIO event loop: the loop of a leased PostgreSQL
/// connection, so that a storage call's statements are written, and their rows read, without a
/// thread hop between the connection's loop and the cooperative pool for each one (issue 35).
///
/// Only storage calls prefer it, for as long as they hold their connection
/// (``PostgresConnection/onItsEventLoop(_:)``): their work between statements is short
/// (binding values, reading rows), and it never blocks, so the loop's other channels wait no
/// longer than they would for a channel handler's work.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension PostgresConnection {
    /// Runs `body` with this connection's event loop as its task's preferred executor.
    func onItsEventLoop<Result: Sendable>(
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop), operation: body)
    }
}
