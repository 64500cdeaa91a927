import GatehouseServerSupport
import ServiceLifecycle

/// Writes the batched rate-limit hits (``BatchedRateLimiter``) to PostgreSQL: a service of the
/// application, run before (and so shut down after) the HTTP server and the flows that count.
///
/// Woken by the first hit that waits, it gathers hits for ``interval`` and writes them all in
/// one statement; a failed write (the database away) is tried again every second. At a graceful
/// shutdown it writes what is left, for at most two seconds.
package struct RateLimitFlush: Service {
    package let limiter: BatchedRateLimiter
    /// How long hits are gathered before a write.
    package let interval: Duration

    package func run() async throws {
        let (limiter, interval) = (limiter, interval)
        await limiter.wakeup.loop(every: .seconds(1)) {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            while await !limiter.write(), !Task.isCancelled, !Task.isShuttingDownGracefully {
                try? await Task.sleep(for: .seconds(1))
            }
        }
        await limiter.settle(timeout: .seconds(2))
    }
}
