import Foundation
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Every branch of the refresh rules, with no database: rows are values, the clock is a date.
@Suite("Refresh decision")
struct RefreshDecisionTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let rules = RefreshDecision.Rules(lifetime: 365 * 86_400, inactivityTimeout: 30 * 86_400, reuseInterval: 10)

    /// A session signed in at `start`, refreshed and rotated `rotatedAgo` seconds before `now`.
    static func row(
        counter: Int64 = 5,
        now: Date,
        rotatedAgo: TimeInterval? = 60,
        createdAt: Date = start,
        bannedUntil: Date? = nil
    ) -> (session: SessionRecord, user: UserRecord) {
        let user = UserRecord(email: "ada@example.com", bannedUntil: bannedUntil, createdAt: start, updatedAt: start)
        let rotatedAt = rotatedAgo.map { now.addingTimeInterval(-$0) }
        let session = SessionRecord(
            userID: user.id,
            salt: "00",
            counter: counter,
            createdAt: createdAt,
            refreshedAt: rotatedAt ?? createdAt,
            rotatedAt: rotatedAt,
            amr: []
        )
        return (session, user)
    }

    static func decide(
        _ row: (session: SessionRecord, user: UserRecord)?,
        presented: Int64,
        isAuthentic: Bool = true,
        now: Date
    ) -> RefreshDecision {
        RefreshDecision.decide(row: row, presented: presented, isAuthentic: isAuthentic, now: now, rules: rules)
    }

    @Test func theCurrentTokenRotates() {
        let now = Self.start.addingTimeInterval(3600)
        #expect(Self.decide(Self.row(now: now), presented: 5, now: now) == .rotate)
        #expect(Self.decide(Self.row(counter: 0, now: now, rotatedAgo: nil), presented: 0, now: now) == .rotate)
    }

    @Test func theDirectParentGetsTheCurrentTokenAtAnyTime() {
        let now = Self.start.addingTimeInterval(3600)
        let row = Self.row(now: now, rotatedAgo: 600)
        #expect(Self.decide(row, presented: 4, now: now) == .answerCurrent(.directParent))
    }

    @Test func anOlderTokenWithinTheReuseIntervalGetsTheCurrentToken() {
        let now = Self.start.addingTimeInterval(3600)
        #expect(
            Self.decide(Self.row(now: now, rotatedAgo: 5), presented: 2, now: now)
                == .answerCurrent(.withinReuseInterval)
        )
        #expect(
            Self.decide(Self.row(now: now, rotatedAgo: 10), presented: 3, now: now)
                == .answerCurrent(.withinReuseInterval),
            "the interval includes its last second"
        )
    }

    @Test func anOlderTokenOutsideTheReuseIntervalRevokesTheSession() {
        let now = Self.start.addingTimeInterval(3600)
        #expect(Self.decide(Self.row(now: now, rotatedAgo: 10.5), presented: 3, now: now) == .revokeForReuse)
        #expect(Self.decide(Self.row(now: now, rotatedAgo: 600), presented: 0, now: now) == .revokeForReuse)
        // A session that never rotated has no interval (only reachable with a forged low counter).
        var row = Self.row(counter: 3, now: now, rotatedAgo: nil)
        row.session.refreshedAt = now
        #expect(Self.decide(row, presented: 1, now: now) == .revokeForReuse)
    }

    @Test func aCounterBeyondTheCurrentOneWasNeverIssued() {
        let now = Self.start.addingTimeInterval(3600)
        #expect(Self.decide(Self.row(now: now), presented: 6, now: now) == .notFound(.neverIssued))
    }

    @Test func noSessionOrAForgedTokenIsNotFound() {
        let now = Self.start.addingTimeInterval(3600)
        #expect(Self.decide(nil, presented: 0, now: now) == .notFound(.noSession))
        #expect(Self.decide(Self.row(now: now), presented: 5, isAuthentic: false, now: now) == .notFound(.notAuthentic))
        // Authenticity comes before anything the row would reveal (ban, expiry).
        let banned = Self.row(now: now, bannedUntil: now.addingTimeInterval(60))
        #expect(Self.decide(banned, presented: 5, isAuthentic: false, now: now) == .notFound(.notAuthentic))
    }

    @Test func aBannedUserLosesEverySessionWhateverTheToken() {
        let now = Self.start.addingTimeInterval(3600)
        for presented: Int64 in [0, 4, 5, 6] {
            let row = Self.row(now: now, bannedUntil: now.addingTimeInterval(60))
            #expect(Self.decide(row, presented: presented, now: now) == .banned)
        }
        let lifted = Self.row(now: now, bannedUntil: now.addingTimeInterval(-1))
        #expect(Self.decide(lifted, presented: 5, now: now) == .rotate, "an expired ban no longer counts")
    }

    @Test func aSessionPastItsLifetimeExpiresEvenWhenActive() {
        let now = Self.start.addingTimeInterval(Self.rules.lifetime + 1)
        #expect(Self.decide(Self.row(now: now, rotatedAgo: 1), presented: 5, now: now) == .expired)
        let edge = Self.start.addingTimeInterval(Self.rules.lifetime)
        #expect(Self.decide(Self.row(now: edge, rotatedAgo: 1), presented: 5, now: edge) == .rotate)
    }

    @Test func aSessionUnusedPastTheInactivityTimeoutIsInactive() {
        let now = Self.start.addingTimeInterval(100 * 86_400)
        let idle = Self.rules.inactivityTimeout
        #expect(Self.decide(Self.row(now: now, rotatedAgo: idle + 1), presented: 5, now: now) == .inactive)
        #expect(Self.decide(Self.row(now: now, rotatedAgo: idle), presented: 5, now: now) == .rotate)
        #expect(
            Self.decide(Self.row(now: now, rotatedAgo: idle + 1), presented: 4, now: now) == .inactive,
            "even the direct parent"
        )
    }

    @Test func aLostRotationAnswersWithTheWinnersTokenOnlyForThatToken() {
        let now = Self.start.addingTimeInterval(3600)
        let (session, _) = Self.row(counter: 6, now: now)
        #expect(
            RefreshDecision.afterLostRotation(current: session, presented: 5) == .answerCurrent(.concurrentRotation)
        )
        #expect(RefreshDecision.afterLostRotation(current: session, presented: 4) == .notFound(.neverIssued))
        #expect(RefreshDecision.afterLostRotation(current: nil, presented: 5) == .notFound(.noSession))
    }
}
