import Foundation
import Logging
import ServiceLifecycle

/// Deletes sessions that ended by time (``SessionLifetime``) so that the table does not grow
/// without bound: a service of the application, off the request path.
///
/// Every ``interval`` it deletes ended sessions in batches of ``batchSize`` rows, one short
/// transaction each (requests' writes interleave between them), until a batch comes back short
/// or ``maximumBatches`` ran; what is left waits for the next pass. On PostgreSQL, instances
/// sweeping at once skip each other's rows. Ended sessions are refused everywhere before they
/// are swept, so the sweep's timing never decides whether a session works.
struct SessionSweep: Service {
    let storage: any AuthStorage
    let lifetime: SessionLifetime
    /// Time between passes (`GATEHOUSE_SESSION_SWEEP_SECONDS`).
    let interval: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    /// Rows one transaction deletes at most.
    static let batchSize = 500
    /// Batches one pass runs at most.
    static let maximumBatches = 200

    /// One pass: deletes ended sessions batch by batch.
    /// - Returns: How many sessions it deleted.
    @discardableResult
    func sweep() async throws -> Int {
        var total = 0
        for _ in 0..<Self.maximumBatches {
            let now = now()
            let deleted = try await storage.transaction { tx in
                try await tx.deleteEndedSessions(
                    createdBefore: lifetime.createdCutoff(at: now),
                    refreshedBefore: lifetime.refreshedCutoff(at: now),
                    limit: Self.batchSize
                )
            }
            total += deleted
            guard deleted == Self.batchSize, !Task.isCancelled else { break }
            await Task.yield()
        }
        return total
    }

    /// Sweeps every ``interval`` until the application shuts down; a failed pass is logged and
    /// tried again at the next one.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                do {
                    let deleted = try await sweep()
                    if deleted > 0 { logger.info("Deleted ended sessions", metadata: ["count": "\(deleted)"]) }
                } catch {
                    logger.warning("Session sweep failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
