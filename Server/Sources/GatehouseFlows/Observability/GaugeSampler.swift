package import Foundation
package import GatehouseStorage
import Synchronization

/// Samples the gauges read from the database (active sessions, the mail outbox's depth and
/// oldest age) when `/metrics` is read, at most every ``interval``, so that scrapes stay cheap.
package final class GaugeSampler: Sendable {
    let interval: Duration
    private let lastSample = Mutex<ContinuousClock.Instant?>(nil)

    package init(interval: Duration = .seconds(15)) {
        self.interval = interval
    }

    package func sampleIfDue(_ storage: any AuthStorage, now: Date = Date()) async {
        let instant = ContinuousClock.now
        let due = lastSample.withLock { last in
            guard last.map({ $0.duration(to: instant) >= interval }) ?? true else { return false }
            last = instant
            return true
        }
        guard due else { return }
        if let count = try? await storage.read({ try await $0.sessionCount() }) {
            AuthMetrics.activeSessions(count)
        }
        if let depth = try? await storage.read({ try await $0.mailOutboxDepth() }) {
            AuthMetrics.mailOutbox(depth, now: now)
        }
    }
}
