import ServiceLifecycle

/// Wakes a background service: ``signal()`` from anywhere (a request that queued work, a
/// test), and ``loop(every:_:)`` in the service's `run()` runs a pass at each signal and at
/// least every interval, until the application's graceful shutdown.
///
/// Signals that arrive while a pass runs are kept as one (the next pass sees all their work),
/// and the interval comes from one ticker that sleeps in full, so waking a service never leaves
/// a cancelled timer behind (on Linux a cancelled `Task.sleep` keeps its timer until the
/// original deadline).
package final class Wakeup: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    package init() {
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a pass as soon as the one under way (if any) ends.
    package func signal() {
        continuation.yield()
    }

    /// Runs `pass` at each ``signal()`` and every `interval`, one pass at a time, until a
    /// graceful shutdown begins (a pass under way finishes first) or the task is cancelled.
    /// Call it from one task at a time: the signals have one reader.
    package func loop(every interval: Duration, _ pass: @Sendable () async -> Void) async {
        let continuation = self.continuation
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: interval)
                    } catch {
                        return
                    }
                    continuation.yield()
                }
            }
            await withGracefulShutdownHandler {
                for await _ in stream {
                    if Task.isShuttingDownGracefully { break }
                    await pass()
                }
            } onGracefulShutdown: {
                continuation.yield()
            }
            group.cancelAll()
        }
    }
}
