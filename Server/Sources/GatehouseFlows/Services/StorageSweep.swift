import Foundation
package import GatehouseStorage
import Logging
import ServiceLifecycle

/// Deletes rows that have served their purpose (``SweptRows``: ended sessions, expired codes
/// and challenges, used nonces, closed rate-limit windows, audit entries past their retention)
/// so that no table grows without bound: a service of the application, off the request path.
///
/// Every ``interval`` it runs one pass: for each kind, batches of ``batchSize`` rows, one short
/// transaction each (requests' writes interleave between them), until a batch comes back short
/// or ``maximumBatches`` ran; what is left waits for the next pass. On PostgreSQL, instances
/// sweeping at once skip each other's rows. Expired rows are refused everywhere before they
/// are swept, so the sweep's timing never decides whether a code or a session works.
package struct StorageSweep: Service {
    let storage: any AuthStorage
    let lifetime: SessionLifetime
    /// How long audit entries are kept (`GATEHOUSE_AUDIT_RETENTION_DAYS`); `nil`: forever.
    let auditRetention: TimeInterval?
    /// Time between passes (`GATEHOUSE_SESSION_SWEEP_SECONDS`).
    let interval: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    /// Rows one transaction deletes at most.
    static let batchSize = 500
    /// Batches one pass runs at most, per kind.
    static let maximumBatches = 200
    /// How long an expired code, challenge or nonce stays before it is swept, so that a late
    /// attempt still hears "expired" rather than "not found" for a while.
    static let expiredGrace: TimeInterval = 3600

    /// One pass over `kinds`: deletes their rows batch by batch.
    /// - Returns: How many rows of each kind it deleted.
    @discardableResult
    package func sweep(_ kinds: [SweptRows] = SweptRows.allCases) async throws -> [SweptRows: Int] {
        var deleted: [SweptRows: Int] = [:]
        for kind in kinds {
            var total = 0
            for _ in 0..<Self.maximumBatches {
                guard let batch = deletion(of: kind, at: now()) else { break }
                let count = try await storage.transaction { tx in try await batch(tx) }
                total += count
                guard count == Self.batchSize, !Task.isCancelled else { break }
                await Task.yield()
            }
            deleted[kind] = total
        }
        return deleted
    }

    /// One batch delete of `kind` as of `now`; `nil` when nothing of the kind is ever swept
    /// (audit entries kept forever).
    private func deletion(
        of kind: SweptRows,
        at now: Date
    ) -> (@Sendable (any StorageTransaction) async throws -> Int)? {
        let limit = Self.batchSize
        let cutoff: Date
        switch kind {
        case .endedSessions:
            let createdBefore = lifetime.createdCutoff(at: now)
            let refreshedBefore = lifetime.refreshedCutoff(at: now)
            return { tx in
                try await tx.deleteEndedSessions(
                    createdBefore: createdBefore,
                    refreshedBefore: refreshedBefore,
                    limit: limit
                )
            }
        case .expiredCodes, .usedNonces, .expiredFactorChallenges, .expiredPasskeyChallenges, .expiredFlowStates:
            cutoff = now.addingTimeInterval(-Self.expiredGrace)
        case .closedRateLimitWindows:
            cutoff = now
        case .oldAuditEntries:
            guard let auditRetention else { return nil }
            cutoff = now.addingTimeInterval(-auditRetention)
        }
        return { tx in try await tx.deleteExpired(kind, before: cutoff, limit: limit) }
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
                    for (kind, count) in try await sweep() where count > 0 {
                        logger.info("Swept \(kind.rawValue)", metadata: ["count": "\(count)"])
                    }
                } catch {
                    logger.warning("Sweep failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
