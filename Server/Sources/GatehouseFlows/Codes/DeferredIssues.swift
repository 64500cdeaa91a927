import GatehouseStorage
import Logging
import ServiceLifecycle
import Synchronization

/// Code-issuing transactions a request hands off so that it answers before the code is written
/// (`POST /recover` does the same work for known and unknown addresses: `security.md` EN-3),
/// run by a service of the application instead of detached tasks.
///
/// Each job is one transaction that writes the code and queues its mail (``MailOutbox``)
/// together, so a code and its mail commit or roll back as one. At a graceful shutdown (after
/// the HTTP server has stopped taking requests) the service finishes the jobs handed over for up
/// to ``grace`` (10 s), then cancels what is left: a job not run issues nothing, no code
/// exists and the person asks again; none is half done. A crash loses the jobs not yet
/// committed the same way.
package final class DeferredIssues: Service, Sendable {
    typealias Job = @Sendable () async throws -> Void

    /// How long a graceful shutdown waits for the jobs handed over.
    let grace: Duration
    private let logger: Logger
    private let jobs: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let waiting = Mutex(0)

    init(grace: Duration = .seconds(10), logger: Logger) {
        self.grace = grace
        self.logger = logger
        (jobs, continuation) = AsyncStream.makeStream()
    }

    /// How many jobs are handed over and not finished.
    package var pending: Int { waiting.withLock { $0 } }

    /// Hands `job` to the service; it runs as soon as the service takes it (jobs run side by
    /// side). A failure is logged by what failed, never with an address.
    func submit(_ job: @escaping Job) {
        waiting.withLock { $0 += 1 }
        if case .terminated = continuation.yield(job) {
            waiting.withLock { $0 -= 1 }
            logger.warning("Code not issued: the server is stopping")
        }
    }

    func run() async throws {
        let (jobs, continuation) = (self.jobs, self.continuation)
        await withShutdownGrace(grace) {
            await withDiscardingTaskGroup { group in
                await withGracefulShutdownHandler {
                    for await job in jobs {
                        group.addTask { await self.perform(job) }
                    }
                } onGracefulShutdown: {
                    // The jobs already handed over are still read; no new one is taken.
                    continuation.finish()
                }
            }
        }
    }

    private func perform(_ job: Job) async {
        defer { waiting.withLock { $0 -= 1 } }
        do {
            try await job()
        } catch {
            logger.error("Code not issued", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }
}
