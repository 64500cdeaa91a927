package import Foundation
package import GatehouseStorage

/// When sessions end by themselves: ``lifetime`` after sign-in however active
/// (`GATEHOUSE_SESSION_LIFETIME_DAYS`, GoTrue's `SESSIONS_TIMEBOX`), or ``inactivityTimeout``
/// after their last refresh (`GATEHOUSE_SESSION_INACTIVITY_DAYS`, GoTrue's
/// `SESSIONS_INACTIVITY_TIMEOUT`).
///
/// An ended session's access tokens are refused (``Authenticator``), its refresh token ends it
/// (``RefreshDecision``), it is not listed (``SessionListing``), and ``StorageSweep`` deletes it.
package struct SessionLifetime: Sendable, Equatable {
    /// Seconds after sign-in at which a session ends.
    var lifetime: TimeInterval
    /// Seconds without a refresh after which a session ends.
    var inactivityTimeout: TimeInterval

    init(lifetime: TimeInterval, inactivityTimeout: TimeInterval) {
        self.lifetime = lifetime
        self.inactivityTimeout = inactivityTimeout
    }

    init(_ configuration: ServerConfiguration) {
        self.init(lifetime: configuration.sessionLifetime, inactivityTimeout: configuration.sessionInactivityTimeout)
    }

    /// Sessions signed in before this moment have ended.
    func createdCutoff(at now: Date) -> Date { now.addingTimeInterval(-lifetime) }

    /// Sessions last refreshed before this moment have ended.
    func refreshedCutoff(at now: Date) -> Date { now.addingTimeInterval(-inactivityTimeout) }

    /// Whether `session` has ended by time at `now` (the rule ``RefreshDecision`` applies too).
    package func hasEnded(_ session: SessionRecord, at now: Date) -> Bool {
        session.createdAt < createdCutoff(at: now) || session.refreshedAt < refreshedCutoff(at: now)
    }
}
