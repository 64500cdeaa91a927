import Foundation
import Synchronization

/// Samples the active-sessions gauge when `/metrics` is read, at most every
/// ``interval`` seconds, so that scrapes stay cheap.
final class ActiveSessionSampler: Sendable {
    let interval: Duration
    private let lastSample = Mutex<ContinuousClock.Instant?>(nil)

    init(interval: Duration = .seconds(15)) {
        self.interval = interval
    }

    func sampleIfDue(_ storage: any AuthStorage) async {
        let now = ContinuousClock.now
        let due = lastSample.withLock { last in
            guard last.map({ $0.duration(to: now) >= interval }) ?? true else { return false }
            last = now
            return true
        }
        guard due, let count = try? await storage.read({ try await $0.sessionCount() }) else { return }
        AuthMetrics.activeSessions(count)
    }
}
